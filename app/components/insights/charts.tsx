import { useRef, useState, type MouseEvent, type ReactNode } from "react";
import { Link } from "@remix-run/react";
import * as ui from "~/styles/ui.css";
import * as s from "./insights.css";

/*
 * Charts drawn on the server, so they show without JavaScript: the days as SVG, the ranked lists as
 * a list of bars in HTML. Every bar carries its figure in a title (the browser's own tooltip) and in
 * the table under the chart. With JavaScript a tooltip follows the pointer.
 */

export interface Series<Row> {
  key: keyof Row & string;
  label: string;
  color: string;
}

/** Shows `data-tip` of the element under the pointer, just above it. */
function useTooltip() {
  const box = useRef<HTMLDivElement>(null);
  const [tip, setTip] = useState<{ text: string; x: number; y: number } | null>(null);
  const onMove = (event: MouseEvent) => {
    const target = (event.target as Element).closest("[data-tip]");
    const frame = box.current?.getBoundingClientRect();
    if (!target || !frame) return setTip(null);
    const rect = target.getBoundingClientRect();
    setTip({
      text: target.getAttribute("data-tip") ?? "",
      x: rect.left + rect.width / 2 - frame.left,
      y: rect.top - frame.top,
    });
  };
  const overlay = tip ? (
    <div className={s.tooltip} style={{ left: tip.x, top: tip.y }} role="presentation">
      {tip.text}
    </div>
  ) : null;
  return { box, overlay, handlers: { onMouseMove: onMove, onMouseLeave: () => setTip(null) } };
}

function Legend<Row>({ series }: { series: Series<Row>[] }) {
  if (series.length < 2) return null;
  return (
    <ul className={s.legend}>
      {series.map((item) => (
        <li key={item.key}>
          <span className={s.swatch} style={{ background: item.color }} aria-hidden="true" />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** Bars per day (stacked when there are several series), with the day axis and the highest value marked. */
export function DayBars<Row extends { day: string }>({
  label,
  rows,
  series,
  figures,
}: {
  label: string;
  rows: Row[];
  series: Series<Row>[];
  figures: ReactNode;
}) {
  const { box, overlay, handlers } = useTooltip();
  // The drawing is scaled to its panel, 400 to 700 pixels wide: drawn 480 wide, its 11-unit labels
  // read at 9 to 16 pixels (drawn 640 wide, at 1,280 pixels they read at 7).
  const width = 480;
  const height = 160;
  const top = 14;
  const bottom = 22;
  const left = 32;
  const value = (row: Row, key: string) => Number((row as Record<string, unknown>)[key] ?? 0);
  const max = Math.max(1, ...rows.map((row) => series.reduce((sum, item) => sum + value(row, item.key), 0)));
  const slot = (width - left) / Math.max(rows.length, 1);
  const bar = Math.max(2, slot * 0.7);
  const scale = (height - top - bottom) / max;
  const every = Math.ceil(rows.length / 8);
  return (
    <figure className={s.figure} ref={box} {...handlers}>
      <svg className={s.svg} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
        <line x1={left} x2={width} y1={height - bottom} y2={height - bottom} stroke="#cbd5e1" />
        <text x={left - 6} y={top + 4} textAnchor="end" fontSize="11" fill="#64748b">
          {max}
        </text>
        <text x={left - 6} y={height - bottom} textAnchor="end" fontSize="11" fill="#64748b">
          0
        </text>
        {rows.map((row, index) => {
          const x = left + index * slot + (slot - bar) / 2;
          let y = height - bottom;
          const total = series.reduce((sum, item) => sum + value(row, item.key), 0);
          return (
            <g key={row.day}>
              {series.map((item) => {
                const h = value(row, item.key) * scale;
                y -= h;
                const tip = `${shortDay(row.day)}: ${value(row, item.key)} ${item.label.toLowerCase()}`;
                return h > 0 ? (
                  <rect
                    key={item.key}
                    x={x}
                    y={y}
                    width={bar}
                    height={h}
                    fill={item.color}
                    data-tip={series.length > 1 ? `${tip} (of ${total})` : tip}
                  >
                    <title>{tip}</title>
                  </rect>
                ) : null;
              })}
              {index % every === 0 ? (
                <text x={x + bar / 2} y={height - 6} textAnchor="middle" fontSize="11" fill="#64748b">
                  {shortDay(row.day)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      {overlay}
      <Legend series={series} />
      <details className={s.figures}>
        <summary>Show the figures</summary>
        {figures}
      </details>
    </figure>
  );
}

/**
 * Horizontal bars for a ranked list (questions, pages), longest first: a list whose items read as
 * their label and count, the bar beside them drawn in CSS. The text keeps the page's size whatever
 * the panel's width (an SVG's would shrink with it). A label too long for its half of the row ends
 * in "…"; "Show the figures" lists every item whole, with its count and note. An item with a `link`
 * is a link to where it is read further; `hint` tells a screen reader where that is.
 */
export function RankBars({
  label,
  items,
  columns,
}: {
  label: string;
  /** `note`: said after the count when a bar is pointed at; `more`: the figures table's third column. */
  items: { label: string; value: number; note?: string; more?: string | number; link?: { to: string; hint: string } }[];
  /** The figures table's headings: the item, its count, and the third column when items have one. */
  columns: [string, string, string?];
}) {
  const { box, overlay, handlers } = useTooltip();
  const max = Math.max(1, ...items.map((item) => item.value));
  const [itemHeading, valueHeading, noteHeading] = columns;
  return (
    <figure className={s.figure} ref={box} {...handlers}>
      <ol className={s.rankList} aria-label={label}>
        {items.map((item, index) => {
          // A question or page title is isolated (first-strong to pop directional isolate, <bdi> as
          // plain text), so that a right-to-left override in it leaves ": 3" after it as it is.
          const tip = `\u2068${item.label}\u2069: ${item.value}${item.note ? ` (\u2068${item.note}\u2069)` : ""}`;
          return (
            <li key={`${item.label}-${index}`} className={s.rankRow}>
              <bdi className={s.rankLabel} title={tip} data-tip={tip}>
                {item.link ? (
                  <Link to={item.link.to}>
                    {item.label}
                    <span className={ui.visuallyHidden}> ({item.link.hint})</span>
                  </Link>
                ) : (
                  item.label
                )}
              </bdi>
              <span className={s.rankBarCell}>
                <span
                  className={s.rankBar}
                  style={{ width: `${(item.value / max) * 85}%` }}
                  title={tip}
                  data-tip={tip}
                  aria-hidden="true"
                />
                <span className={s.rankValue}>{item.value}</span>
              </span>
            </li>
          );
        })}
      </ol>
      {overlay}
      <details className={s.figures}>
        <summary>Show the figures</summary>
        <div className={ui.tableScroll} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{itemHeading}</th>
                <th scope="col">{valueHeading}</th>
                {noteHeading ? <th scope="col">{noteHeading}</th> : null}
              </tr>
            </thead>
            <tbody>
              {items.map((item, index) => (
                <tr key={`${item.label}-${index}`}>
                  <td>
                    <bdi>{item.label}</bdi>
                  </td>
                  <td>{item.value}</td>
                  {noteHeading ? (
                    <td>
                      <bdi>{item.more ?? ""}</bdi>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
