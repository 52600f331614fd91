/** What bench/chart/chart.bench.ts asks the page (page/main.ts) and what it answers. */
export interface PageRunOptions {
  /** Points of the series (one second apart). */
  points: number;
  decimation: boolean;
  /** Share of the whole range shown while panning (0..1). */
  zoomShare: number;
  /** Pixels panned at each animation frame. */
  panPixels: number;
  /** How long to pan, ms. */
  panMs: number;
  /** Leave the chart on the page afterwards (to look at it); default false. */
  keepMounted?: boolean;
}

export interface PageRunResult {
  decimation: boolean;
  points: number;
  /** From asking for the chart to its first render (Chart.js `afterRender`). */
  renderedMs: number;
  /** To the next animation frame after it: the first frame on screen. */
  firstFrameMs: number;
  frames: number;
  panElapsedMs: number;
  /** Animation frames per second while panning. */
  fps: number;
  /** Mean and longest time of one pan (decimate, lay out, draw), ms. */
  meanPanWorkMs: number;
  longestPanWorkMs: number;
  /** Points the chart drew at the end (after decimation). */
  drawnPoints: number;
}

export interface ChartBenchPage {
  ready: true;
  run(options: PageRunOptions): Promise<PageRunResult>;
}
