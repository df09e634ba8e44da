/*
 * The host page's markup. It holds no data: the script fills it from /__pipeline/state, so
 * nothing the tool or the author's files contain is ever written into HTML.
 */
export const HOST_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pipeline-tool dev</title>
<link rel="stylesheet" href="/__pipeline/host.css">
</head>
<body>
<header>
  <h1>pipeline-tool dev</h1>
  <span id="tool-name"></span>
  <span id="connection" role="status"></span>
</header>
<div id="controls">
  <label>Tool type
    <select id="tool-type">
      <option value="">from manifest</option>
      <option value="standalone">standalone</option>
      <option value="quoting_extension">quoting_extension</option>
    </select>
  </label>
  <label>Role <input id="user-role" list="role-suggestions" size="12" autocomplete="off"></label>
  <datalist id="role-suggestions"></datalist>
  <label>Culture <input id="culture-code" size="6" autocomplete="off"></label>
  <label>SDK <select id="sdk-version"></select></label>
  <button id="apply-choices" type="button">Apply and reload</button>
  <span class="spacer"></span>
  <button id="reload-tool" type="button">Reload tool</button>
  <button id="reset-quote" type="button">Reset quote</button>
  <button id="reset-settings" type="button">Reset settings</button>
  <span id="control-error" role="alert"></span>
</div>
<div id="notices"></div>
<main>
  <section id="tool-pane" aria-label="Tool">
    <div id="tool-problems" role="alert" hidden></div>
    <div id="frame-holder"></div>
  </section>
  <section id="side">
    <details open id="quote-panel">
      <summary>Open quote</summary>
      <div class="panel-body">
        <h3>Editor</h3>
        <div id="quote-editor"></div>
        <h3>Customer preview</h3>
        <div id="quote-preview"></div>
        <h3>Created with quotes.create</h3>
        <div id="created-quotes"></div>
      </div>
    </details>
    <details open id="log-panel">
      <summary>Bridge calls (<span id="call-count">0</span>)</summary>
      <button id="clear-log" type="button">Clear</button>
      <ol id="call-log" reversed></ol>
    </details>
    <details open id="findings-panel">
      <summary>Validation findings (<span id="finding-count">0</span>)</summary>
      <div id="findings"></div>
    </details>
    <details id="settings-panel">
      <summary>Stored settings</summary>
      <p class="hint">Kept in <code id="settings-file"></code></p>
      <div id="settings-list"></div>
    </details>
    <details id="events-panel">
      <summary>Server events</summary>
      <div id="events"></div>
    </details>
  </section>
</main>
<script src="/__pipeline/host.js"></script>
</body>
</html>
`;
