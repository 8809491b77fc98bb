// sheets-sync: tells the server at once when a judge edits this spreadsheet.
// Run installTrigger once (Run ▶); after that every edit posts this sheet's id and secret.
// The URL and the secret are plain text (letters, digits, - and _: nothing to escape in a JS string).
// The server's own writes go through the API and never fire the trigger: no loop.
var SHEETS_SYNC_URL = '{{ hook_url }}';
var SHEETS_SYNC_SECRET = '{{ tournament.hook_secret }}';

function installTrigger() {
  var spreadsheet = SpreadsheetApp.getActive();
  ScriptApp.getProjectTriggers().forEach(function (trigger) {
    if (trigger.getHandlerFunction() === 'pushEdit') {
      ScriptApp.deleteTrigger(trigger);  // run twice, still one trigger
    }
  });
  ScriptApp.newTrigger('pushEdit').forSpreadsheet(spreadsheet).onEdit().create();
}

function pushEdit(e) {
  UrlFetchApp.fetch(SHEETS_SYNC_URL, {
    method: 'post',
    contentType: 'application/json',
    payload: JSON.stringify({spreadsheet_id: SpreadsheetApp.getActive().getId(), secret: SHEETS_SYNC_SECRET}),
    muteHttpExceptions: true
  });
}
