/** One value of a dashboard tile. */
export interface TileValue {
  /** Shown before the value when a tile has several ("Consumption"). */
  label?: string;
  /** The value with its unit, formatted ("12.3 kWh"). */
  text: string;
  /** The unrounded number, or null when there is no data. */
  raw: number | null;
  /** Stable name for tests: `data-tile-value`. */
  name: string;
}
