/* «Новый турнир»: a club season usually wants the club-season regulation — the preset follows the
   kind until the organizer picks one. The script tag says which preset each kind takes. */
(function () {
  var me = document.currentScript;
  var kind = document.getElementById("id_kind"), preset = document.getElementById("id_preset");
  if (!me || !kind || !preset) { return; }
  var byKind = {tournament: me.getAttribute("data-tournament"), season: me.getAttribute("data-season")}, touched = false;
  preset.addEventListener("change", function () { touched = true; });
  kind.addEventListener("change", function () { if (!touched && byKind[kind.value]) { preset.value = byKind[kind.value]; } });
})();
