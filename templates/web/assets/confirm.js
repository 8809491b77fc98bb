/* a form that changes something for good (a draw into the sheet, unregistering) asks first: its
   data-confirm is the question. Every page loads this file (no inline handlers: the pages'
   Content-Security-Policy runs the app's own files only). */
document.addEventListener("submit", function (event) {
  var form = event.target, question = form && form.getAttribute && form.getAttribute("data-confirm");
  if (question && !window.confirm(question)) { event.preventDefault(); }
}, true);
