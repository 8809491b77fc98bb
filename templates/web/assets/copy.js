/* a button with data-copies="<id>" copies that element's text (a field's value, else what it shows:
   the service's address, a code, a link, the snippet), then says data-done */
document.addEventListener("click", function (event) {
  var button = event.target.closest && event.target.closest("button[data-copies]");
  if (!button) { return; }
  var field = document.getElementById(button.getAttribute("data-copies"));
  if (!field) { return; }
  var text;
  if ("value" in field && typeof field.select === "function") {
    field.select();
    text = field.value;
  } else {  /* select what it shows, so that a refused clipboard still leaves it ready for Ctrl+C */
    var range = document.createRange();
    range.selectNodeContents(field);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    text = field.textContent.trim();
  }
  var copied = navigator.clipboard ? navigator.clipboard.writeText(text)
                                   : Promise.resolve(document.execCommand("copy"));
  copied.then(function () { button.textContent = button.getAttribute("data-done"); },
              function () { document.execCommand("copy"); button.textContent = button.getAttribute("data-done"); });
});
