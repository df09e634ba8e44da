import type { BridgeContextDto, PipelineSdk } from 'pipeline-tool/bridge';
import { Fragment, useMemo, useState } from 'react';
import { readBridgeError, type BridgeFailure } from './lib/bridge';
import type { Catalogue } from './lib/catalogue';
import { addToQuote, buildEstimate, DEFAULT_KITCHEN, hostOf, lineIndexOf, round2, type KitchenForm } from './lib/estimate';
import { formattersFor } from './lib/format';

interface Props {
  bridge: PipelineSdk;
  context: BridgeContextDto;
  catalogue: Catalogue;
}

/** The kitchen's answers, the lines they make, and sending them to the open quote. */
export function Estimator({ bridge, context, catalogue }: Props) {
  const [form, setForm] = useState<KitchenForm>(DEFAULT_KITCHEN);
  const [failure, setFailure] = useState<BridgeFailure | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const estimate = useMemo(() => buildEstimate(form, catalogue, hostOf(bridge)), [form, catalogue, bridge]);
  const { money } = useMemo(() => formattersFor(context.cultureCode), [context.cultureCode]);

  // A change to the answers is a new estimate: what was said about the last one no longer holds.
  const change = (next: Partial<KitchenForm>) => {
    setForm({ ...form, ...next });
    setFailure(null);
    setSent(null);
  };
  const send = async () => {
    setFailure(null);
    setSent(null);
    setSending(true);
    try {
      await addToQuote(bridge, estimate);
      const count = estimate.lines.length;
      setSent(`Added ${count} ${count === 1 ? 'line' : 'lines'} to the quote. Save the quote to keep them.`);
    } catch (error) {
      setFailure(readBridgeError(error));
    } finally {
      setSending(false);
    }
  };

  // Problems that name a line are shown under it; the rest (a declared section's) above the button.
  const byLine = new Map<number, string[]>();
  const elsewhere: string[] = [];
  for (const problem of failure?.details ?? []) {
    const index = lineIndexOf(problem);
    if (index !== null && index < estimate.lines.length) byLine.set(index, [...(byLine.get(index) ?? []), problem.field ? `${problem.field}: ${problem.message}` : problem.message]);
    else elsewhere.push(`${problem.path}: ${problem.message}`);
  }
  const total = round2(estimate.lines.reduce((sum, line) => sum + round2(line.qty * line.unitPrice), 0));

  return (
    <main>
      {/* A form, for its layout; the sandbox never submits it (no allow-forms). */}
      <form noValidate onSubmit={(event) => event.preventDefault()}>
        <fieldset>
          <legend>Cabinets</legend>
          <div className="pair">
            <label>
              Base cabinets <input name="baseCabinets" type="number" min="0" max="40" step="1" value={form.baseCabinets} onChange={(event) => change({ baseCabinets: event.target.value })} />
            </label>
            <label>
              Wall cabinets <input name="wallCabinets" type="number" min="0" max="40" step="1" value={form.wallCabinets} onChange={(event) => change({ wallCabinets: event.target.value })} />
            </label>
          </div>
          <label className="check">
            <input name="handles" type="checkbox" checked={form.handles} onChange={(event) => change({ handles: event.target.checked })} /> A bar handle on every cabinet
          </label>
        </fieldset>
        <fieldset>
          <legend>Benchtop</legend>
          <div className="pair">
            <label>
              Material
              <select name="benchtop" value={form.benchtop} onChange={(event) => change({ benchtop: event.target.value as KitchenForm['benchtop'] })}>
                <option value="stone">Engineered stone</option>
                <option value="laminate">Laminate</option>
                <option value="none">No benchtop</option>
              </select>
            </label>
            <label>
              Length in metres <input name="benchtopMetres" type="number" min="0" max="30" step="0.1" value={form.benchtopMetres} onChange={(event) => change({ benchtopMetres: event.target.value })} />
            </label>
          </div>
        </fieldset>
        <fieldset>
          <legend>Site work</legend>
          <label className="check">
            <input name="stripOut" type="checkbox" checked={form.stripOut} onChange={(event) => change({ stripOut: event.target.checked })} /> Strip out and dispose of the old kitchen
          </label>
          <label className="check">
            <input name="checkMeasure" type="checkbox" checked={form.checkMeasure} onChange={(event) => change({ checkMeasure: event.target.checked })} /> Check measure before ordering
          </label>
        </fieldset>
      </form>

      <section aria-labelledby="lines-heading">
        <h2 id="lines-heading">Lines for the quote</h2>
        <ul className="notices" aria-label="Notices">
          {estimate.notices.map((notice) => (
            <li key={notice}>{notice}</li>
          ))}
        </ul>
        <div className="scroll">
          <table className="grid">
            <thead>
              <tr>
                <th>Line</th>
                <th className="number">Qty</th>
                <th className="number">Price</th>
                <th className="number">Amount</th>
              </tr>
            </thead>
            <tbody>
              {estimate.lines.length === 0 && (
                <tr className="section">
                  <td colSpan={4}>Nothing to add yet: choose some cabinets or a benchtop.</td>
                </tr>
              )}
              {estimate.lines.map((line, index) => (
                <Fragment key={index}>
                  {line.section !== estimate.lines[index - 1]?.section && (
                    <tr className="section">
                      <td colSpan={4}>{line.summaryOnly ? `${line.section ?? ''} (the customer sees one total)` : line.section}</td>
                    </tr>
                  )}
                  <tr data-line={index} className={byLine.has(index) ? 'rejected' : undefined}>
                    <td>{line.description}</td>
                    <td className="number">{line.qty}</td>
                    <td className="number">{money(line.unitPrice)}</td>
                    <td className="number">{money(round2(line.qty * line.unitPrice))}</td>
                  </tr>
                  {(byLine.get(index) ?? []).map((message) => (
                    <tr key={message} className="line-problem">
                      <td colSpan={4}>{message}</td>
                    </tr>
                  ))}
                </Fragment>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th colSpan={3}>Before tax</th>
                <td className="number">{money(total)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
        {failure && (
          <div className="message error" role="alert">
            {/* With details, each problem is shown on its own; the message would repeat them. */}
            <p>{`${failure.details.length > 0 ? 'Nothing was added; the lines marked above need changes.' : `Nothing was added. ${failure.message}`}${failure.code ? ` (${failure.code})` : ''}`}</p>
            {elsewhere.length > 0 && (
              <ul>
                {elsewhere.map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {sent && (
          <p className="message success" role="status">
            {sent}
          </p>
        )}
        {/* Sending the same kitchen twice would double it; a change to the answers enables the button again. */}
        <button type="button" className="primary" disabled={sending || sent !== null || estimate.lines.length === 0} onClick={() => void send()}>
          Add to quote
        </button>
      </section>
    </main>
  );
}
