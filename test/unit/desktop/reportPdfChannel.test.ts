import { describe, expect, it, vi } from 'vitest';
import type { ChannelHandlers } from '../../../electron/ipc/contract.ts';
import { createDispatcher } from '../../../electron/ipc/dispatch.ts';

/** The report's file name crosses the bridge from the page: only a plain file name gets through. */
describe("'report.savePdf' arguments", () => {
  const savePdf = vi.fn(async () => ({ saved: true, path: '/home/me/Report.pdf' }));
  const dispatch = createDispatcher({ 'report.savePdf': savePdf } as unknown as ChannelHandlers);

  it('passes a plain name, trimmed', async () => {
    const answer = await dispatch('report.savePdf', [
      { suggestedName: '  Commissioning Roof 2026-11-21 ' },
    ]);
    expect(answer).toEqual({ ok: true, value: { saved: true, path: '/home/me/Report.pdf' } });
    expect(savePdf).toHaveBeenLastCalledWith({ suggestedName: 'Commissioning Roof 2026-11-21' });
  });

  it.each(['../../etc/passwd', 'a\\b', 'C:report', 'tab\there', 'what?', '', ' '])(
    'refuses %j',
    async (suggestedName) => {
      savePdf.mockClear();
      const answer = await dispatch('report.savePdf', [{ suggestedName }]);
      expect(answer).toMatchObject({ ok: false, error: { kind: 'invalidArguments' } });
      expect(savePdf).not.toHaveBeenCalled();
    },
  );
});
