import { init, use as registerEcharts } from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

// Only the pieces most of the product's charts use, so the echarts chunk stays small. A page
// needing another series type (the CRM relation graph) registers it in its own file with
// `registerEcharts` from 'echarts/core' and passes its own option type.
registerEcharts([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** echarts' `init`, with the shared pieces registered: loaded by EChart when a chart first mounts. */
export { init };
