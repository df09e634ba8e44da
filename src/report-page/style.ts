/** The report page's style sheet, inline (its hash is in the page's content security policy). */
export const PAGE_STYLE = `
:root { color-scheme: light; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2733; background: #fff; }
body { margin: 0 auto; max-width: 1040px; padding: 16px 20px 40px; }
h1 { font-size: 20px; margin: 0 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 16px; margin: 28px 0 8px; }
.size-line { margin: 0; color: #44505c; }
.note { color: #5b6672; margin: 4px 0 8px; }
.limit { display: grid; grid-template-columns: 90px 1fr 330px; gap: 12px; align-items: center; margin: 6px 0; }
.bar { height: 14px; background: #edf0f3; border-radius: 3px; overflow: hidden; }
.fill { height: 100%; background: #3d8b5a; }
.fill.near { background: #d69a2d; }
.fill.over { background: #c8413b; }
.figures { font-variant-numeric: tabular-nums; }
.size-by { margin: 4px 0 8px; display: flex; gap: 16px; }
svg.treemap { width: 100%; height: auto; display: block; border: 1px solid #d5dbe1; }
svg.treemap rect { stroke: #fff; stroke-width: 0.5; }
svg.treemap .node:hover > rect { stroke: #1d2733; stroke-width: 1.5; }
svg.treemap text { font-size: 11px; fill: #1d2733; pointer-events: none; }
svg.treemap .folder-label { font-weight: 600; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid #edf0f3; }
td.number, th:not(:first-child) { text-align: right; font-variant-numeric: tabular-nums; }
td.name { overflow-wrap: anywhere; }
#findings li { margin: 4px 0; }
#findings .severity { font-weight: 600; text-transform: uppercase; font-size: 11px; }
#findings .error .severity { color: #c8413b; }
#findings .warning .severity { color: #a8741a; }
#findings .rule, #findings .built { color: #5b6672; }
footer { margin-top: 32px; color: #5b6672; font-size: 12px; }
`;
