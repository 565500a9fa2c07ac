import { appearanceValueText, isImageSetting } from "~/lib/appearance";
import * as s from "./appearance.css";

/** One side of a setting in the push question: an image as its thumbnail, anything else as the form names it. */
export function SettingValue({ internalName, label, value }: { internalName: string; label: string; value: unknown }) {
  if (isImageSetting(internalName) && typeof value === "string" && value)
    return <img src={value} alt={label} className={s.thumb} />;
  return <>{appearanceValueText(internalName, value)}</>;
}
