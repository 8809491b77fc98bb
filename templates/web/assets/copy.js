/* a button with data-copies="<id>" copies that field's text, then says data-done */
document.addEventListener("click", function (event) {
  var button = event.target.closest && event.target.closest("button[data-copies]");
  if (!button) { return; }
  var field = document.getElementById(button.getAttribute("data-copies"));
  field.select();
  var copied = navigator.clipboard ? navigator.clipboard.writeText(field.value)
                                   : Promise.resolve(document.execCommand("copy"));
  copied.then(function () { button.textContent = button.getAttribute("data-done"); });
});
