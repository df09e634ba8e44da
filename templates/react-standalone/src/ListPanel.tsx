import type { BridgePagedResult, PipelineSdk } from 'pipeline-tool/bridge';
import { useEffect, useMemo, useState } from 'react';
import { readBridgeError } from './lib/bridge';
import type { Formatters } from './lib/format';
import { pageCount, VIEWS } from './lib/lists';
import { PAGE_SIZES, type ListName } from './lib/preferences';

interface Props {
  bridge: PipelineSdk;
  list: ListName;
  page: number;
  pageSize: number;
  format: Formatters;
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
}

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'loaded'; result: BridgePagedResult<unknown> };

/** One list, a page at a time; the pager works out the pages from totalCount. */
export function ListPanel({ bridge, list, page, pageSize, format, onPage, onPageSize }: Props) {
  const view = VIEWS[list];
  // Each answer keeps the request it answers: until the current request's answer arrives, the panel is loading.
  const request = useMemo(() => ({ bridge, view, page, pageSize }), [bridge, view, page, pageSize]);
  const [answer, setAnswer] = useState<{ request: typeof request; loaded: Loaded } | null>(null);

  useEffect(() => {
    // An answer that arrives after a newer request is dropped, so fast clicking never shows the wrong page.
    let current = true;
    request.view.load(request.bridge, { page: request.page, pageSize: request.pageSize }).then(
      (result) => current && setAnswer({ request, loaded: { state: 'loaded', result } }),
      (error: unknown) => current && setAnswer({ request, loaded: { state: 'failed', message: `Could not load ${request.view.noun}: ${readBridgeError(error).message}` } }),
    );
    return () => {
      current = false;
    };
  }, [request]);

  const loaded: Loaded = answer?.request === request ? answer.loaded : { state: 'loading' };

  const result = loaded.state === 'loaded' ? loaded.result : null;
  const pages = result ? pageCount(result) : 1;
  return (
    <section role="tabpanel">
      <p className={loaded.state === 'failed' ? 'muted error' : 'muted'} aria-live="polite">
        {loaded.state === 'loading' ? `Loading ${view.noun}…` : loaded.state === 'failed' ? loaded.message : result?.totalCount === 0 ? `No ${view.noun} yet.` : ''}
      </p>
      <div className="scroll">
        <table className="grid">
          <thead>
            <tr>
              {view.columns.map((column) => (
                <th key={column.heading} className={column.style}>
                  {column.heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(result?.items ?? []).map((row, index) => (
              <tr key={index}>
                {view.columns.map((column) => (
                  <td key={column.heading} className={column.style}>
                    {column.value(row, format)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="pager">
        <button type="button" disabled={!result || result.page <= 1} onClick={() => onPage(Math.max(1, page - 1))}>
          Previous
        </button>
        <span className="muted" data-testid="page-info">
          {result ? `Page ${result.page} of ${pages} · ${result.totalCount} ${view.noun}` : ''}
        </span>
        <button type="button" disabled={!result || result.page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </button>
        <label className="page-size">
          Rows
          <select value={pageSize} onChange={(event) => onPageSize(Number(event.target.value))}>
            {PAGE_SIZES.map((size) => (
              <option key={size}>{size}</option>
            ))}
          </select>
        </label>
      </div>
    </section>
  );
}
