// The comparison's chart as an image to paste into a pull request or a doc: the SVG the app drew,
// made standalone (its title above, its legend below, every style it takes from the app's CSS
// written on its elements, so it looks the same outside the app, in the theme it was drawn in),
// and that SVG rasterized as a PNG at twice its size. What only the screen needs (the pointer's
// targets, the tooltip) is left out.
import type { ChartImage } from "../platform";

const SVG_NS = "http://www.w3.org/2000/svg";
/** The room above the plot for the chart's title, and below it for the legend (px). */
const TITLE_ROOM = 26;
const LEGEND_ROOM = 26;
/** The room one legend entry takes besides its name's characters (px), and a character's (px). */
const LEGEND_SWATCH = 44;
const LEGEND_CHAR = 8;
/** The styles the chart's elements take from the app's CSS that drawing them anywhere needs. */
const DRAWN_STYLES = [
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-dasharray",
  "stroke-opacity",
  "opacity",
  "font-family",
  "font-size",
  "font-weight",
  "text-anchor",
  "dominant-baseline",
] as const;

/** The forms the chart is saved in. */
export type ChartFormat = "svg" | "png";

/** The chart as a standalone SVG document, and its size in pixels. */
export interface ChartPicture {
  svg: string;
  width: number;
  height: number;
}

/** `figure` (the chart's: see TokenChart) as a standalone SVG; null while it draws no plot. */
export function chartPicture(figure: HTMLElement): ChartPicture | null {
  const plot = figure.querySelector<SVGSVGElement>(".chart-plot > svg");
  if (plot === null) return null;
  const [x, y, width, plotHeight] = plot.getAttribute("viewBox")?.split(" ").map(Number) ?? [];
  if (x === undefined || y === undefined || width === undefined || plotHeight === undefined) return null;
  const height = TITLE_ROOM + plotHeight + LEGEND_ROOM;
  const picture = document.createElementNS(SVG_NS, "svg");
  picture.setAttribute("xmlns", SVG_NS);
  picture.setAttribute("viewBox", `0 0 ${String(width)} ${String(height)}`);
  picture.setAttribute("width", String(width));
  picture.setAttribute("height", String(height));
  picture.append(background(figure, width, height));
  const title = figure.querySelector(".chart-title")?.textContent ?? "";
  picture.append(text(title, 8, 17, { "font-weight": "600", ...textStyle(figure) }));
  const drawn = styledCopy(plot);
  const body = document.createElementNS(SVG_NS, "g");
  body.setAttribute("transform", `translate(${String(-x)} ${String(TITLE_ROOM - y)})`);
  body.append(...drawn.childNodes);
  picture.append(body);
  picture.append(legend(figure, TITLE_ROOM + plotHeight + 6));
  const xml = new XMLSerializer().serializeToString(picture);
  return { svg: `<?xml version="1.0" encoding="UTF-8"?>\n${xml}\n`, width, height };
}

/** `picture` rasterized at `scale` times its size, as a PNG file's bytes. */
export async function pngOf(picture: ChartPicture, scale = 2): Promise<Uint8Array> {
  const image = new Image();
  image.width = picture.width;
  image.height = picture.height;
  const loaded = new Promise<void>((resolve, reject) => {
    image.onload = () => {
      resolve();
    };
    image.onerror = () => {
      reject(new Error("the chart's SVG did not load as an image"));
    };
  });
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(picture.svg)}`;
  await loaded;
  const canvas = document.createElement("canvas");
  canvas.width = picture.width * scale;
  canvas.height = picture.height * scale;
  const context = canvas.getContext("2d");
  if (context === null) throw new Error("no canvas to draw the chart on");
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) => {
    canvas.toBlob(resolve, "image/png");
  });
  if (blob === null) throw new Error("the chart could not be drawn as a PNG");
  return new Uint8Array(await blob.arrayBuffer());
}

/** What the platform saves for `picture` as `format`. */
export async function chartImage(picture: ChartPicture, format: ChartFormat): Promise<ChartImage> {
  if (format === "svg") return { format: "svg", svg: picture.svg };
  return { format: "png", svg: picture.svg, png: [...(await pngOf(picture))] };
}

/** A deep copy of `element` without what only the screen needs, each element's drawn styles written on it. */
function styledCopy<T extends Element>(element: T): T {
  const copy = element.cloneNode(false) as T;
  copy.removeAttribute("class");
  copy.removeAttribute("role");
  copy.removeAttribute("aria-labelledby");
  copy.removeAttribute("id");
  for (const name of [...copy.getAttributeNames()]) if (name.startsWith("data-")) copy.removeAttribute(name);
  const style = drawnStyle(element);
  if (style !== "") copy.setAttribute("style", style);
  for (const child of element.childNodes) {
    if (child instanceof Element) {
      if (child.classList.contains("hit") || child.localName === "desc") continue;
      copy.append(styledCopy(child));
    } else if (child.nodeType === Node.TEXT_NODE) copy.append(child.cloneNode());
  }
  return copy;
}

function drawnStyle(element: Element): string {
  const computed = getComputedStyle(element);
  return DRAWN_STYLES.map((name) => [name, computed.getPropertyValue(name)] as const)
    .filter(([, value]) => value !== "")
    .map(([name, value]) => `${name}:${value}`)
    .join(";");
}

/** The figure's background: the first colour behind it that is not transparent (white if none). */
function background(figure: HTMLElement, width: number, height: number): SVGRectElement {
  let colour = "";
  for (let at: Element | null = figure; at !== null && colour === ""; at = at.parentElement) {
    const value = getComputedStyle(at).backgroundColor;
    if (value !== "" && value !== "transparent" && value !== "rgba(0, 0, 0, 0)") colour = value;
  }
  const rect = document.createElementNS(SVG_NS, "rect");
  rect.setAttribute("width", String(width));
  rect.setAttribute("height", String(height));
  rect.setAttribute("fill", colour === "" ? "#ffffff" : colour);
  return rect;
}

function textStyle(figure: HTMLElement): Record<string, string> {
  const computed = getComputedStyle(figure);
  return { fill: computed.color || "#000000", "font-family": computed.fontFamily || "sans-serif", "font-size": "13px" };
}

function text(content: string, x: number, y: number, style: Record<string, string>): SVGTextElement {
  const element = document.createElementNS(SVG_NS, "text");
  element.setAttribute("x", String(x));
  element.setAttribute("y", String(y));
  element.setAttribute(
    "style",
    Object.entries(style)
      .map(([name, value]) => `${name}:${value}`)
      .join(";"),
  );
  element.textContent = content;
  return element;
}

/** The legend's entries in a row at `top`: each lane's swatch as drawn, then its name. */
function legend(figure: HTMLElement, top: number): SVGGElement {
  const row = document.createElementNS(SVG_NS, "g");
  row.setAttribute("transform", `translate(8 ${String(top)})`);
  let left = 0;
  for (const entry of figure.querySelectorAll(".legend li")) {
    const swatch = entry.querySelector("svg");
    const name = entry.textContent.trim();
    if (swatch !== null) {
      const drawn = styledCopy(swatch);
      const group = document.createElementNS(SVG_NS, "g");
      group.setAttribute("transform", `translate(${String(left)} 0)`);
      group.setAttribute("style", drawn.getAttribute("style") ?? "");
      group.append(...drawn.childNodes);
      row.append(group);
    }
    row.append(text(name, left + 28, 9, { ...textStyle(figure), "font-size": "12px" }));
    left += LEGEND_SWATCH + name.length * LEGEND_CHAR;
  }
  return row;
}
