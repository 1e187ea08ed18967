const COLUMNS = ['tool', 'calls', 'outcome', 'error.type', 'tool.error_kind', 'retryable', 'duration'];

function cells(row) {
  const averageMs = (row.totalDurationSeconds / row.calls) * 1000;
  return [
    row.toolName,
    String(row.calls),
    row.outcome,
    row.errorType ?? '-',
    row.errorKind ?? '-',
    row.retryable === undefined ? '-' : row.retryable ? 'yes' : 'no',
    `${averageMs < 10 ? averageMs.toFixed(1) : Math.round(averageMs)} ms`,
  ];
}

/**
 * Prints the summary rows (one per tool and outcome) as an aligned table, in the order the agent
 * called the tools, and says where the telemetry went.
 */
export function printSummaryTable(rows, toolOrder) {
  if (rows.length === 0) {
    console.log(
      'No tool spans were recorded. Run under the register: node --import otel-tool-errors/register …',
    );
    return;
  }
  const rank = (name) => (toolOrder.includes(name) ? toolOrder.indexOf(name) : toolOrder.length);
  const lines = [COLUMNS, ...[...rows].sort((a, b) => rank(a.toolName) - rank(b.toolName)).map(cells)];
  const widths = COLUMNS.map((_, i) => Math.max(...lines.map((line) => line[i].length)));
  const format = (line) =>
    line
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  console.log(format(lines[0]));
  console.log(format(widths.map((width) => '-'.repeat(width))));
  for (const line of lines.slice(1)) console.log(format(line));

  const endpoint = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (process.env.OTEL_TRACES_EXPORTER === 'none' || !endpoint) {
    console.log(
      '\nTelemetry stayed in this process. Set OTEL_EXPORTER_OTLP_ENDPOINT to send it to a collector.',
    );
  } else {
    console.log(
      `\nSpans and metrics are exported to ${endpoint} as service "${process.env.OTEL_SERVICE_NAME}".` +
        ' In Jaeger, search tags error.type=500 or tool.error_kind=rate_limit.',
    );
  }
}
