import { useEffect, useRef, useState, type RefObject } from "react";
import type { PreviewFrame } from "~/lib/appearance";
import * as s from "./appearance.css";

/**
 * The live preview's frame at the size the widget's panel needs (`previewFrame`). A frame larger
 * than its box (a wide or tall panel, a short window) scrolls, starting at the widget's corner,
 * under a note that says the rest is a scroll away.
 */
export function LivePreview({
  src,
  frame,
  size,
  onLoad,
}: {
  src: string;
  frame: RefObject<HTMLIFrameElement>;
  size: PreviewFrame;
  onLoad: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const scroller = box.current;
    if (!scroller) return;
    const measure = () =>
      setScrolls(scroller.scrollWidth > scroller.clientWidth || scroller.scrollHeight > scroller.clientHeight);
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [size]);
  // The widget sits in a bottom corner (again once the note has made the box shorter).
  useEffect(() => {
    const scroller = box.current;
    if (!scroller) return;
    scroller.scrollTop = scroller.scrollHeight;
    scroller.scrollLeft = size.left ? 0 : scroller.scrollWidth;
  }, [size, scrolls]);
  return (
    <div className={s.preview}>
      {scrolls ? (
        <p className={s.previewNote}>The widget is shown at its real size: scroll the preview to see all of it.</p>
      ) : null}
      <div
        ref={box}
        className={s.previewScroller}
        role="region"
        aria-label="Live preview"
        // A box that scrolls takes focus, so it scrolls from the keyboard too.
        tabIndex={scrolls ? 0 : undefined}
      >
        <iframe
          ref={frame}
          title="Chat preview"
          src={src}
          className={s.frame}
          style={{ minWidth: size.width, minHeight: size.height }}
          onLoad={onLoad}
        />
      </div>
    </div>
  );
}
