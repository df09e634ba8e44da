import type { BridgeContextDto, PipelineSdk } from 'pipeline-tool/bridge';
import { useEffect, useState } from 'react';
import { Estimator } from './Estimator';
import { findBridge, readBridgeError } from './lib/bridge';
import { loadCatalogue, type Catalogue } from './lib/catalogue';

/*
 * A quoting extension for Pipeline: opened from inside a quote, it prices a kitchen from a few
 * answers and adds the lines to that quote with quotes.addLines, in sections.
 *
 * The host runs the tool in a sandboxed frame: alert(), confirm() and prompt() do nothing there,
 * browser storage is not dependable, and whatever the host sends is shown as text (React escapes
 * it), never as HTML.
 */

type Start = { state: 'starting' } | { state: 'failed'; message: string } | { state: 'ready'; context: BridgeContextDto; catalogue: Catalogue };

export function App() {
  const bridge = findBridge();
  return bridge ? <Tool bridge={bridge} /> : <OutsideHost />;
}

function Tool({ bridge }: { bridge: PipelineSdk }) {
  const [start, setStart] = useState<Start>({ state: 'starting' });
  useEffect(() => {
    let current = true;
    Promise.all([bridge.context.get(), loadCatalogue(bridge)]).then(
      ([context, catalogue]) => current && setStart({ state: 'ready', context, catalogue }),
      (error: unknown) => current && setStart({ state: 'failed', message: `The tool could not start: ${readBridgeError(error).message}` }),
    );
    return () => {
      current = false;
    };
  }, [bridge]);

  if (start.state === 'starting') return <p className="muted">Loading the catalogue…</p>;
  if (start.state === 'failed') return <p className="message error" role="alert">{start.message}</p>;
  return (
    <>
      <p className="muted">
        {start.context.userName} · {start.context.tenantName}
      </p>
      <Estimator bridge={bridge} context={start.context} catalogue={start.catalogue} />
    </>
  );
}

function OutsideHost() {
  return (
    <section className="message">
      <h2>Open this tool through Pipeline</h2>
      <p>
        The tool talks to Pipeline through <code>window.pipeline</code>, which exists only when a Pipeline host, or its
        emulator, opens the tool from a quote.
      </p>
      <p>To try it on your computer, run this in the project folder and open the address it prints:</p>
      <pre>
        <code>npm run dev</code>
      </pre>
    </section>
  );
}
