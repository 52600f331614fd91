import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createLanguagePreference } from '../../../electron/services/languagePreference.ts';
import { silentLogger } from '../../../electron/services/logger.ts';

function preference(systemLanguages: string[], dataDir = mkdtempSync(join(tmpdir(), 'lang-'))) {
  const onChange = vi.fn();
  const warnings: string[] = [];
  const log = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
  const service = createLanguagePreference({
    dataDir,
    systemLanguages: () => systemLanguages,
    log,
    onChange,
  });
  return { service, onChange, warnings, dataDir };
}

describe('the language preference', () => {
  it('follows the system until a language is chosen', () => {
    const { service } = preference(['it-IT', 'en-US']);
    expect(service.state()).toEqual({ chosen: null, system: 'it' });
    expect(service.effective()).toBe('it');
    expect(service.translator()('menu.view')).toBe('Visualizza');
  });

  it('keeps a choice in a 0600 file that the next start reads, and says when it changes', () => {
    const { service, onChange, dataDir } = preference(['en-GB']);
    expect(service.choose('de')).toEqual({ chosen: 'de', system: 'en' });
    expect(onChange).toHaveBeenCalledWith('de');
    expect(service.translator()('menu.view')).toBe('Ansicht');
    const file = join(dataDir, 'language.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ locale: 'de' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);

    const next = preference(['en-GB'], dataDir);
    expect(next.service.effective()).toBe('de');
  });

  it('follows the system again when the choice is cleared; no change, no call', () => {
    const { service, onChange } = preference(['de-CH']);
    service.choose('de');
    expect(onChange).not.toHaveBeenCalled();
    service.choose('it');
    service.choose(null);
    expect(service.state()).toEqual({ chosen: null, system: 'de' });
    expect(onChange.mock.calls).toEqual([['it'], ['de']]);
  });

  it('sets a damaged file aside and follows the system', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lang-'));
    writeFileSync(join(dataDir, 'language.json'), '{"locale":"klingon"}');
    const { service, warnings } = preference(['it'], dataDir);
    expect(service.effective()).toBe('it');
    expect(warnings.join()).toMatch(/not a language choice/);
    expect(readFileSync(join(dataDir, 'language.json.corrupt'), 'utf8')).toContain('klingon');
  });
});
