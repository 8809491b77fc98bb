// {{ w.push_code_what }}
// {{ w.push_code_run }}
// {{ w.push_code_plain }}
// {{ w.push_code_loop }}
{% if hook_unreachable %}// {{ w.push_code_unreachable }}
{% endif %}var SHEETS_SYNC_URL = '{{ hook_url }}';
var SHEETS_SYNC_SECRET = '{{ tournament.hook_secret }}';

function installTrigger() {
  var spreadsheet = SpreadsheetApp.getActive();
  ScriptApp.getProjectTriggers().forEach(function (trigger) {
    if (trigger.getHandlerFunction() === 'pushEdit') {
      ScriptApp.deleteTrigger(trigger);  // {{ w.push_code_twice }}
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
