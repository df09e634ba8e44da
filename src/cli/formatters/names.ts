/** Formatter names, kept apart from the formatters so flag parsing does not load them. */
export const formatNames = ['text', 'json', 'github', 'sarif'] as const;

export type FormatName = (typeof formatNames)[number];
