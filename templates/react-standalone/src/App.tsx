import type { BridgeContextDto, PipelineSdk } from 'pipeline-tool/bridge';
import { useEffect, useMemo, useState } from 'react';
import { ListPanel } from './ListPanel';
import { QuoteForm } from './QuoteForm';
import { findBridge, readBridgeError } from './lib/bridge';
import { formattersFor } from './lib/format';
import { loadPreferences, savePreferences, TABS, type ListName, type Preferences, type TabName } from './lib/preferences';

/*
 * A standalone Pipeline tool: a sidebar panel that browses the tenant's customers, jobs and
 * quotes, and creates a quote from a short form.
 *
 * The host runs the tool in a sandboxed frame, which shapes a few habits here: alert(), confirm()
 * and prompt() do nothing there, so every message is part of the page; browser storage is not
 * dependable, so preferences go through pipeline.settings; and whatever the host or the user
 * sends is shown as text (React escapes it), never as HTML.
 */

const TAB_LABELS: Record<TabName, string> = { customers: 'Customers', jobs: 'Jobs', quotes: 'Quotes', 'new-quote': 'New quote' };

type Start = { state: 'starting' } | { state: 'failed'; message: string } | { state: 'ready'; context: BridgeContextDto; preferences: Preferences };

export function App() {
  const bridge = findBridge();
  return bridge ? <Tool bridge={bridge} /> : <OutsideHost />;
}

function Tool({ bridge }: { bridge: PipelineSdk }) {
  const [start, setStart] = useState<Start>({ state: 'starting' });
  useEffect(() => {
    let current = true;
    Promise.all([bridge.context.get(), loadPreferences(bridge)]).then(
      ([context, preferences]) => current && setStart({ state: 'ready', context, preferences }),
      (error: unknown) => current && setStart({ state: 'failed', message: `The tool could not start: ${readBridgeError(error).message}` }),
    );
    return () => {
      current = false;
    };
  }, [bridge]);

  if (start.state === 'starting') return <p className="muted">Connecting to Pipeline…</p>;
  if (start.state === 'failed') return <p className="message error" role="alert">{start.message}</p>;
  return <Panels bridge={bridge} context={start.context} initial={start.preferences} />;
}

function Panels({ bridge, context, initial }: { bridge: PipelineSdk; context: BridgeContextDto; initial: Preferences }) {
  const [preferences, setPreferences] = useState(initial);
  // Each list keeps its own page while the user moves between tabs.
  const [pages, setPages] = useState<Record<ListName, number>>({ customers: 1, jobs: 1, quotes: 1 });
  const format = useMemo(() => formattersFor(context.cultureCode), [context.cultureCode]);
  const choose = (next: Preferences) => {
    setPreferences(next);
    savePreferences(bridge, next);
  };
  const { tab } = preferences;

  return (
    <>
      <p className="muted">
        {context.userName} · {context.tenantName}
      </p>
      <nav className="tabs" role="tablist" aria-label="Views">
        {TABS.map((name) => (
          <button key={name} type="button" role="tab" aria-selected={tab === name} onClick={() => tab !== name && choose({ ...preferences, tab: name })}>
            {TAB_LABELS[name]}
          </button>
        ))}
      </nav>
      {tab === 'new-quote' ? (
        <QuoteForm bridge={bridge} format={format} onCreated={() => setPages({ ...pages, quotes: 1 })} />
      ) : (
        <ListPanel
          bridge={bridge}
          list={tab}
          page={pages[tab]}
          pageSize={preferences.pageSize}
          format={format}
          onPage={(page) => setPages({ ...pages, [tab]: page })}
          onPageSize={(pageSize) => {
            setPages({ customers: 1, jobs: 1, quotes: 1 });
            choose({ ...preferences, pageSize });
          }}
        />
      )}
    </>
  );
}

function OutsideHost() {
  return (
    <section className="message">
      <h2>Open this tool through Pipeline</h2>
      <p>
        The tool talks to Pipeline through <code>window.pipeline</code>, which exists only when a Pipeline host, or its
        emulator, opens the tool.
      </p>
      <p>To try it on your computer, run this in the project folder and open the address it prints:</p>
      <pre>
        <code>npm run dev</code>
      </pre>
    </section>
  );
}
