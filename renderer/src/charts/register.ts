import {
  BarController,
  BarElement,
  Chart,
  Decimation,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  TimeScale,
  Tooltip,
} from 'chart.js';
import 'chartjs-adapter-luxon';
import zoomPlugin from 'chartjs-plugin-zoom';

let registered = false;

/**
 * Registers what TimeChart uses with Chart.js (tree-shaken: only these pieces ship): line and
 * bar charts on a time axis (Luxon adapter), the band fill, legend, tooltip, decimation and
 * chartjs-plugin-zoom. Idempotent.
 */
export function registerCharts(): void {
  if (registered) return;
  registered = true;
  Chart.register(
    LineController,
    BarController,
    LineElement,
    BarElement,
    PointElement,
    LinearScale,
    TimeScale,
    Tooltip,
    Legend,
    Filler,
    Decimation,
    zoomPlugin,
  );
}
