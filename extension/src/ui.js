// Helpers shared by the popup and options pages (DOM, no page access).

import { api } from "./api.js";
import { BlocksiftError, hintCommand } from "./protocol.js";

/** Send an internal message to the background; throws BlocksiftError on failure. */
export async function ask(type, payload = {}) {
  const reply = await api.runtime.sendMessage({ type, ...payload });
  if (!reply) throw new BlocksiftError("The extension's background did not answer.", { code: "internal" });
  if (!reply.ok) throw new BlocksiftError(reply.error?.message ?? "failed", reply.error ?? {});
  return reply.value;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

/** The scalar parameter fields of a pydantic JSON schema: [{name, type, default, ...}]. */
export function paramFields(schema) {
  const props = schema?.properties ?? {};
  const fields = [];
  for (const [name, prop] of Object.entries(props)) {
    const variants = prop.anyOf ?? [prop];
    const typed = variants.find((v) => ["number", "integer", "boolean"].includes(v.type));
    if (!typed) continue;
    fields.push({
      name,
      type: typed.type,
      title: prop.title ?? name,
      description: prop.description ?? "",
      default: prop.default,
      minimum: typed.minimum ?? typed.exclusiveMinimum,
      maximum: typed.maximum ?? typed.exclusiveMaximum,
      exclusiveMinimum: typed.exclusiveMinimum,
      exclusiveMaximum: typed.exclusiveMaximum,
    });
  }
  return fields;
}

/**
 * Why `value` is no value for `field`, or "" when it is one: out of the schema's bounds (the
 * input's own min/max, plus the exclusive bounds, which min/max cannot say), or not whole where
 * a whole number is asked. A value the host's params model would refuse is not saved: saved, it
 * made every later page fail until the user found the field again.
 */
export function paramProblem(field, value) {
  if (!Number.isFinite(value)) return "must be a number";
  if (field.type === "integer" && !Number.isInteger(value)) return "must be a whole number";
  if (field.exclusiveMinimum !== undefined && value <= field.exclusiveMinimum) return `must be more than ${field.exclusiveMinimum}`;
  if (field.exclusiveMaximum !== undefined && value >= field.exclusiveMaximum) return `must be less than ${field.exclusiveMaximum}`;
  if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
  if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
  return "";
}

/**
 * Render inputs for an algorithm's params into `container`. `values` holds the user's
 * overrides; an empty field means "the paper's default". `onChange(newValues)` fires on edit.
 * A value out of bounds is not passed on: `onInvalid(message)` says why (by default the
 * browser's own bubble on the field), and the field stays marked until it is mended.
 */
export function renderParams(container, schema, values, onChange, { limit = Infinity, onInvalid } = {}) {
  container.replaceChildren();
  const fields = paramFields(schema).slice(0, limit);
  if (!fields.length) {
    container.append(el("p", { class: "muted", text: "This algorithm has no numeric parameters." }));
    return;
  }
  const current = { ...values };
  for (const field of fields) {
    const id = `param-${field.name}`;
    let input;
    if (field.type === "boolean") {
      input = el("input", { type: "checkbox", id, name: field.name });
      input.checked = typeof current[field.name] === "boolean" ? current[field.name] : Boolean(field.default);
    } else {
      input = el("input", {
        type: "number", id, name: field.name, step: field.type === "integer" ? "1" : "any",
        min: field.minimum, max: field.maximum, placeholder: field.default ?? "",
      });
      if (typeof current[field.name] === "number") input.value = String(current[field.name]);
    }
    input.addEventListener("change", () => {
      if (field.type === "boolean") current[field.name] = input.checked;
      else if (input.value === "" && !input.validity.badInput) delete current[field.name];
      else {
        const problem = paramProblem(field, input.value === "" ? NaN : Number(input.value));
        input.setCustomValidity(problem);
        input.setAttribute("aria-invalid", String(Boolean(problem)));
        if (problem) {
          const message = `${field.title} ${problem}; the saved value is kept.`;
          if (onInvalid) onInvalid(message);
          else input.reportValidity();
          return;
        }
        current[field.name] = Number(input.value);
      }
      input.setCustomValidity("");
      input.setAttribute("aria-invalid", "false");
      onChange({ ...current });
    });
    container.append(el("label", { class: "param", for: id, title: field.description },
      el("span", { text: field.title }), input,
      field.description ? el("span", { class: "explain", text: oneLine(field.description) }) : null));
  }
}

/** The first clause of a parameter's description, for a one-line explanation under it. */
export function oneLine(description) {
  const text = String(description || "").split(/\s\(|;\s/)[0].trim();
  return text.length > 110 ? `${text.slice(0, 107)}…` : text;
}

/** A one-line rendering of an error with its hint (install command) when there is one. */
export function renderError(container, error) {
  container.replaceChildren(el("strong", { text: error?.message ?? String(error) }));
  if (error?.hint) {
    const command = hintCommand(error.hint);
    container.append(el("span", { text: " Where blocksift is set up (docs/install.md), in its virtual environment, run:" }),
      el("code", { class: "command", text: command }));
  }
}
