import type { PipelineSdk } from 'pipeline-tool/bridge';
import { useState } from 'react';
import { readBridgeError, type BridgeFailure } from './lib/bridge';
import type { Formatters } from './lib/format';
import { describePath, emptyLine, emptyQuote, problemPlace, toQuoteRequest, type LineForm, type QuoteForm as Form } from './lib/quote';

interface Props {
  bridge: PipelineSdk;
  format: Formatters;
  onCreated: () => void;
}

/**
 * Creates a quote with quotes.create and shows the host's answer: the new quote, or the message,
 * the error code and each problem next to the field it names.
 */
export function QuoteForm({ bridge, format, onCreated }: Props) {
  const [form, setForm] = useState<Form>(emptyQuote);
  const [failure, setFailure] = useState<BridgeFailure | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const invalid = new Set((failure?.details ?? []).map((problem) => problemPlace(problem.path)).map((place) => `${place.line ?? ''}:${place.field}`));
  const isInvalid = (field: string, line: number | null = null) => invalid.has(`${line ?? ''}:${field}`) || undefined;
  const setLine = (index: number, change: Partial<LineForm>) => setForm({ ...form, lines: form.lines.map((line, at) => (at === index ? { ...line, ...change } : line)) });

  const create = async () => {
    setFailure(null);
    setCreated(null);
    setSending(true);
    try {
      const result = await bridge.quotes.create(toQuoteRequest(form));
      setCreated(`Quote ${result.ref} was created, total ${format.money(result.total)}.`);
      setForm(emptyQuote());
      onCreated();
    } catch (error) {
      setFailure(readBridgeError(error));
    } finally {
      setSending(false);
    }
  };

  // A form, for its layout; it is never submitted: the host's sandbox has no allow-forms, so a
  // submit event would never fire. The button is type="button" with a click handler.
  return (
    <section role="tabpanel">
      <form noValidate onSubmit={(event) => event.preventDefault()}>
        <fieldset>
          <legend>Customer</legend>
          <label>
            Name <input name="customerName" autoComplete="off" value={form.customerName} onChange={(event) => setForm({ ...form, customerName: event.target.value })} />
          </label>
          <label>
            E-mail
            <input name="customerEmail" type="email" autoComplete="off" aria-invalid={isInvalid('customerEmail')} value={form.customerEmail} onChange={(event) => setForm({ ...form, customerEmail: event.target.value })} />
          </label>
          <label className="check">
            <input name="upsertByEmail" type="checkbox" checked={form.upsertByEmail} onChange={(event) => setForm({ ...form, upsertByEmail: event.target.checked })} />
            Find the customer by e-mail, or create them
          </label>
        </fieldset>
        <label>
          Quote title <input name="title" autoComplete="off" value={form.title} onChange={(event) => setForm({ ...form, title: event.target.value })} />
        </label>
        <fieldset>
          <legend>Lines</legend>
          <table className="grid lines">
            <thead>
              <tr>
                <th>Description</th>
                <th className="number">Qty</th>
                <th className="number">Unit price</th>
                <th className="number">Tax %</th>
                <th>
                  <span className="hidden-label">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {form.lines.map((line, index) => (
                <tr key={index}>
                  <td>
                    <input name="description" aria-label="Description" value={line.description} onChange={(event) => setLine(index, { description: event.target.value })} />
                  </td>
                  <td>
                    <input name="qty" type="number" min="0" step="any" aria-label="Quantity" aria-invalid={isInvalid('qty', index)} value={line.qty} onChange={(event) => setLine(index, { qty: event.target.value })} />
                  </td>
                  <td>
                    <input name="unitPrice" type="number" min="0" step="0.01" aria-label="Unit price" aria-invalid={isInvalid('unitPrice', index)} value={line.unitPrice} onChange={(event) => setLine(index, { unitPrice: event.target.value })} />
                  </td>
                  <td>
                    <input name="taxRate" type="number" min="0" step="any" aria-label="Tax rate in percent" aria-invalid={isInvalid('taxRate', index)} value={line.taxRate} onChange={(event) => setLine(index, { taxRate: event.target.value })} />
                  </td>
                  <td>
                    <button type="button" className="remove-line" aria-label="Remove this line" disabled={form.lines.length === 1} onClick={() => setForm({ ...form, lines: form.lines.filter((_, at) => at !== index) })}>
                      ×
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <button type="button" onClick={() => setForm({ ...form, lines: [...form.lines, emptyLine()] })}>
            Add a line
          </button>
        </fieldset>
        {failure && (
          <div className="message error" role="alert">
            {/* With details, each problem is listed on its own; the message would repeat them. */}
            <p>{`${failure.details.length > 0 ? 'The quote was not created:' : failure.message}${failure.code ? ` (${failure.code})` : ''}`}</p>
            {failure.details.length > 0 && (
              <ul>
                {failure.details.map((problem, index) => (
                  <li key={index}>{`${describePath(problem.path)}: ${problem.message}`}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {created && (
          <p className="message success" role="status">
            {created}
          </p>
        )}
        <button type="button" className="primary" disabled={sending} onClick={() => void create()}>
          Create quote
        </button>
      </form>
    </section>
  );
}
