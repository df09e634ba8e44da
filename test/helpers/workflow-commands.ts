/**
 * Reads a line of output as GitHub's runner reads a workflow command (`::error file=…,line=2::…`):
 * the properties run from the first space to the next `::`, split at each `,`, each at its first
 * `=` (a piece without one is dropped), then unescaped; the message is what follows that `::`.
 * A name that is not escaped as the runner expects comes back cut short, or not at all.
 */
export interface WorkflowCommand {
  command: string;
  properties: Record<string, string>;
  message: string;
}

const unescapeData = (text: string) => text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
const unescapeProperty = (text: string) => unescapeData(text.replace(/%3A/g, ':').replace(/%2C/g, ','));

export function readWorkflowCommand(raw: string): WorkflowCommand | undefined {
  // The runner trims leading white space first (.NET's, which counts U+0085 too).
  const line = raw.replace(/^[\s\u0085]+/u, '');
  if (!line.startsWith('::')) return undefined;
  const end = line.indexOf('::', 2);
  if (end === -1) return undefined;
  const head = line.slice(2, end);
  const space = head.indexOf(' ');
  const command = space === -1 ? head : head.slice(0, space);
  const properties: Record<string, string> = {};
  if (space !== -1) {
    for (const piece of head.slice(space + 1).split(',')) {
      const equals = piece.indexOf('=');
      if (equals > 0) properties[piece.slice(0, equals)] = unescapeProperty(piece.slice(equals + 1));
    }
  }
  return { command, properties, message: unescapeData(line.slice(end + 2)) };
}

/**
 * Whether the runner would take a line as a command of either form: the `::` form after trimming,
 * or the older `##[name …]` form anywhere in the line.
 */
export function readsAsCommand(line: string): boolean {
  return readWorkflowCommand(line) !== undefined || line.includes('##[');
}

/** Every workflow command in some output, in order. */
export function readWorkflowCommands(output: string): WorkflowCommand[] {
  return output.split('\n').flatMap((line) => readWorkflowCommand(line) ?? []);
}
