/** The host page's styles: plain, compact, and clearly not part of the tool. */
export const HOST_PAGE_CSS = `
:root { color-scheme: light; --line: #d0d5dd; --muted: #667085; --accent: #2b59c3; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.4 system-ui, sans-serif; color: #1d2939; background: #f2f4f7; overflow-x: hidden; }
header { display: flex; gap: 1em; align-items: baseline; padding: 6px 12px; background: #1d2939; color: #fff; }
header h1 { font-size: 14px; margin: 0; }
#connection { color: #fda29b; }
#controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 6px 12px; background: #fff; border-bottom: 1px solid var(--line); }
#controls .spacer { flex: 1; }
#control-error { color: #b42318; }
#notices .notice, #events .notice { margin: 0; padding: 4px 12px; }
.notice.warning { background: #fffaeb; } .notice.error { background: #fef3f2; color: #b42318; } .notice.info { background: #eff8ff; }
/*
 * Layout. Narrow (under 1000 px): one column, the tool first, then the call log, then the quote.
 * Medium: the tool beside one column of panels, which scrolls by itself, with the quote held to
 * part of the height so that the call log shows below it. Wide (1700 px and up): the tool, the
 * quote and the call log side by side. In every case the call log is in the first screenful.
 */
main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 12px; padding: 12px; }
#tool-pane { background: #fff; border: 1px solid var(--line); min-width: 0; display: flex; flex-direction: column; }
#side { display: flex; flex-direction: column; }
#log-panel { order: -1; }
#frame-holder { flex: 1; }
#frame-holder, #tool-frame { min-height: 55vh; }
@media (min-width: 1000px) {
  body { display: flex; flex-direction: column; height: 100vh; }
  main { flex: 1; min-height: 0; grid-template-columns: minmax(0, 1fr) minmax(0, 1.35fr); }
  #tool-pane, #side { min-height: 0; }
  #side { overflow-y: auto; }
  #log-panel { order: 0; }
  #frame-holder, #tool-frame { min-height: 0; }
  #quote-panel[open] > .panel-body { max-height: 42vh; overflow-y: auto; }
}
@media (min-width: 1700px) {
  main { grid-template-columns: minmax(0, 1fr) minmax(0, 2.6fr); }
  #side { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 1fr); grid-auto-rows: min-content; column-gap: 12px; align-items: start; }
  #quote-panel { grid-column: 1; grid-row: 1 / span 10; }
  #side > details:not(#quote-panel) { grid-column: 2; }
  #quote-panel[open] > .panel-body { max-height: none; }
}
#tool-problems { background: #fef3f2; color: #b42318; border-bottom: 2px solid #f04438; padding: 6px 10px; max-height: 35vh; overflow: auto; }
#tool-problems[hidden] { display: none; }
#tool-problems .problems-head { display: flex; justify-content: space-between; align-items: center; gap: 8px; }
#tool-problems ol { margin: 4px 0 0; padding-left: 20px; }
#tool-problems li { margin: 2px 0; word-break: break-word; }
.problem-kind { font-weight: 600; } .problem-place { color: #7a271a; }
#frame-holder, #tool-frame { width: 100%; height: 100%; border: 0; display: block; }
#side { min-width: 0; }
/* The quote's tables fit their panel, or the whole panel body scrolls sideways as one. */
#quote-panel > .panel-body { overflow-x: auto; }
#side details { background: #fff; border: 1px solid var(--line); margin-bottom: 12px; padding: 6px 10px; }
#side summary { font-weight: 600; cursor: pointer; }
h3 { font-size: 12px; text-transform: uppercase; color: var(--muted); margin: 12px 0 4px; }
h4 { margin: 8px 0 4px; }
table { border-collapse: collapse; min-width: 100%; margin: 4px 0; }
th, td { border-bottom: 1px solid var(--line); padding: 2px 3px; text-align: left; vertical-align: top; white-space: nowrap; }
#quote-editor td:nth-child(3), #quote-preview td:first-child, #created-quotes td:nth-child(2), #settings-list td { white-space: normal; min-width: 7em; word-break: break-word; }
/* Codes and unit tokens (T_DEFAULT_INSTALLATION_TASK, T_SQUARE_METRE) wrap when the panel is
   narrow, so the amounts at the right stay in view instead of behind a sideways scroll. */
#quote-editor td:nth-child(4), #quote-editor td:nth-child(6), #quote-preview td:nth-child(3) { white-space: normal; overflow-wrap: anywhere; min-width: 5em; }
th { color: var(--muted); font-weight: 500; }
.notes { white-space: pre-wrap; color: #344054; font-style: italic; margin: 2px 0; }
.badge { font-size: 11px; background: #eef4ff; color: var(--accent); border-radius: 3px; padding: 0 4px; margin-left: 6px; }
.totals { text-align: right; margin: 2px 0; font-variant-numeric: tabular-nums; }
.summary-row { display: flex; justify-content: space-between; font-weight: 600; border-bottom: 1px solid var(--line); padding: 2px 4px; }
.empty, .hint { color: var(--muted); }
#call-log { list-style: none; padding: 0; margin: 6px 0 0; max-height: 60vh; overflow: auto; }
.call-head { flex-wrap: wrap; } .call-method { word-break: break-all; }
.call { border-left: 3px solid var(--line); padding: 2px 6px; margin-bottom: 6px; }
.call.ok { border-color: #12b76a; } .call.failed { border-color: #f04438; } .call.pending { border-color: #fdb022; }
.call-head { display: flex; gap: 8px; } .call-time, .call-ms { color: var(--muted); } .call-ms { margin-left: auto; }
.call-error { color: #b42318; } .call-error p { margin: 2px 0; } .call-warning { color: #b54708; margin: 2px 0; }
.call-repeat { color: #5925dc; margin: 2px 0; }
pre { white-space: pre-wrap; word-break: break-word; margin: 2px 0; max-height: 240px; overflow: auto; background: #f9fafb; }
#findings li.error { color: #b42318; } #findings li.warning { color: #b54708; } #findings .ok { color: #027a48; }
`;
