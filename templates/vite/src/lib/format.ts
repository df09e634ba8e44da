/**
 * Number and date formats in the user's culture (`cultureCode`, such as en-NZ). The bridge does
 * not say which currency the tenant uses, so amounts are shown without a symbol.
 */
export function formattersFor(cultureCode: string) {
  let locale: string | undefined;
  try {
    locale = Intl.getCanonicalLocales(cultureCode)[0];
  } catch {
    locale = undefined;
  }
  const money = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  return {
    money: (amount: number) => money.format(amount),
    date: (iso: string) => {
      const parsed = new Date(iso);
      return Number.isNaN(parsed.getTime()) ? iso : date.format(parsed);
    },
  };
}

export type Formatters = ReturnType<typeof formattersFor>;
