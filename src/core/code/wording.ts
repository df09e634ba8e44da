/** The tail of a message whose file had more findings of its rule than are listed. */
export function andMore(data: { more?: number }): string {
  return data.more ? ` (${data.more} more like this in the file are not listed.)` : '';
}
