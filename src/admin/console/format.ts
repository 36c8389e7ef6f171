/** How the console writes times, ages and sizes for people. Pure; the data itself stays ISO 8601 and numbers. */
import type { ConsoleLanguage } from '../../config/console-schema.js';

const pad = (n: number): string => String(n).padStart(2, '0');

/** `2026-06-12 14:03:07` in the server's local time (the ERP's users and the daemon share it). */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

const UNITS: Record<ConsoleLanguage, { ms: string; s: string; min: string; h: string; d: string }> = {
  en: { ms: 'ms', s: 's', min: 'min', h: 'h', d: 'd' },
  ru: { ms: 'мс', s: 'с', min: 'мин', h: 'ч', d: 'д' },
};

/** `350 ms`, `2.4 s`, `7 min`, `3 h 5 min`, `2 d 4 h`. */
export function formatDuration(ms: number | null | undefined, language: ConsoleLanguage): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const u = UNITS[language];
  const abs = Math.max(0, ms);
  if (abs < 1_000) return `${Math.round(abs)} ${u.ms}`;
  if (abs < 60_000) return `${(abs / 1_000).toFixed(abs < 10_000 ? 1 : 0)} ${u.s}`;
  const minutes = Math.floor(abs / 60_000);
  if (minutes < 60) return `${minutes} ${u.min}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} ${u.h}${minutes % 60 ? ` ${minutes % 60} ${u.min}` : ''}`;
  return `${Math.floor(hours / 24)} ${u.d}${hours % 24 ? ` ${hours % 24} ${u.h}` : ''}`;
}

/** `812 B`, `14.2 KiB`, `3.1 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Epoch ms to ISO 8601 (UTC), null kept. */
export function iso(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}

/** Local midnight of the day `now` falls on: "today" of the overview. */
export function startOfLocalDay(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** The start of the local hour `now` falls in (a zone 5:30 or 5:45 from UTC starts its hours there, not at UTC's). */
export function startOfLocalHour(now: number): number {
  const d = new Date(now);
  d.setMinutes(0, 0, 0);
  return d.getTime();
}

/** `14:05` in local time. */
export function formatClock(iso: string): string {
  const d = new Date(iso);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
