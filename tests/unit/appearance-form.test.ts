import { describe, expect, it } from "vitest";
import {
  appearanceValueText,
  isImageSetting,
  pickedColourName,
  pickerColour,
  previewFrame,
  removeImageName,
  shownColourName,
  valuesFromForm,
} from "../../app/lib/appearance";

describe("the Appearance form's values", () => {
  it("reads an image ticked Remove as no image, for the preview as for the save", () => {
    const form = new FormData();
    form.append("avatar_url", "/storage/public/appearance/1/avatar.png");
    form.append(removeImageName("avatar_url"), "true");
    form.append("launcher_icon_url", "/storage/public/appearance/1/icon.png");
    expect(valuesFromForm(form)).toMatchObject({
      avatar_url: "",
      launcher_icon_url: "/storage/public/appearance/1/icon.png",
    });
  });

  it("reads the line breaks a browser posts from the greeting's box (CR LF) as the widget keeps them (LF)", () => {
    const form = new FormData();
    form.append("greeting_message", "Hi there!\r\nAsk me anything.\rOr nothing.");
    expect(valuesFromForm(form).greeting_message).toBe("Hi there!\nAsk me anything.\nOr nothing.");
  });

  it("takes a colour picked without JavaScript when its text was left as shown, and the typed text otherwise", () => {
    const posted = (typed: string, picked: string) => {
      const form = new FormData();
      form.append("primary_color", typed);
      form.append(shownColourName("primary_color"), "#1F4B99");
      form.append(pickedColourName("primary_color"), picked);
      return valuesFromForm(form).primary_color;
    };
    // Picked, text untouched (no script wrote the pick into it).
    expect(posted("#1F4B99", "#ff0000")).toBe("#ff0000");
    // Typed: the text wins, whatever the picker still shows.
    expect(posted("#00ff00", "#1f4b99")).toBe("#00ff00");
    // Neither changed: the text as it was (its case kept).
    expect(posted("#1F4B99", "#1f4b99")).toBe("#1F4B99");
  });

  it("gives the colour picker the typed colour, a short one spelt out, and black for what is not a colour yet", () => {
    expect(pickerColour("#f00")).toBe("#ff0000");
    expect(pickerColour("#A1b")).toBe("#aa11bb");
    expect(pickerColour("#1F4B99")).toBe("#1f4b99");
    expect(pickerColour("#f0")).toBe("#000000");
    expect(pickerColour("red")).toBe("#000000");
  });

  it("sizes the preview frame to show the panel whole at its real size, within the fields' ranges", () => {
    expect(previewFrame({ width: 480, height: 720, offset: 64 })).toEqual({ width: 608, height: 848, left: false });
    // 20 px from the edge: the window's own margin (100 px) is what keeps the panel's top in view.
    expect(previewFrame({ width: 380, height: 560, offset: 20, position: "bottom-left" })).toEqual({
      width: 420,
      height: 660,
      left: true,
    });
    // Half typed or out of range (refused on save): the default, or the nearest size allowed.
    expect(previewFrame({ width: "", height: 9000, offset: -5 })).toEqual({ width: 380, height: 820, left: false });
  });
});

describe("a setting's value in the push question", () => {
  it("names a choice by its label, a switch On or Off, a number with its unit and an empty value None", () => {
    expect(appearanceValueText("position", "bottom-left")).toBe("Bottom left");
    expect(appearanceValueText("font_family", "serif")).toBe("Serif");
    expect(appearanceValueText("font_size", 16)).toBe("16 px");
    expect(appearanceValueText("greeting_message", "")).toBe("None");
    expect(appearanceValueText("header_logo_url", "")).toBe("None");
    expect(appearanceValueText("bot_name", "Ava")).toBe("Ava");
    expect(appearanceValueText("show_sources", false)).toBe("Off");
    expect(appearanceValueText("z_index", 9000)).toBe("9000");
    // A value stored before its choice was renamed, or a setting the console does not know, as stored.
    expect(appearanceValueText("position", "top-left")).toBe("top-left");
    expect(appearanceValueText("retired_setting", 3)).toBe("3");
  });

  it("shows images as thumbnails", () => {
    expect(isImageSetting("avatar_url")).toBe(true);
    expect(isImageSetting("bot_name")).toBe(false);
  });
});
