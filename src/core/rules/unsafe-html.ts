import { andMore } from '../code/wording.js';
import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ sink: string; more?: number }>({
  id: 'unsafe-html',
  severity: 'warning',
  description:
    '`innerHTML` / `outerHTML` is assigned, or `insertAdjacentHTML` / `document.write` is given, anything but a plain string literal.',
  why: 'HTML built from data (customer names, notes) can inject markup or script into the tool.',
  fix: 'Set `textContent`, build elements, or escape every interpolated value.',
  message: (data) =>
    `${data.sink} is given HTML built at run time. If any part of it comes from data (customer names, notes, product descriptions), it can inject markup or script. Set textContent, build elements with createElement, or escape every interpolated value (& < > " ').${andMore(data)}`,
});
