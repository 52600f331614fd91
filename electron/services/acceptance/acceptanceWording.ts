import type {
  AcceptanceFigure,
  AcceptanceFinding,
  AcceptanceRecheck,
  AcceptanceResult,
} from '../../ipc/contract.ts';
import { wordsOf, type StoredText, type Wording } from '../hostText.ts';

/**
 * A re-check as it is kept: its titles, findings, actions and figure names as message keys and
 * raw figures, put into words when the page reads it (`acceptance.get`), so that a report read
 * in another language than the one of the check reads in it. Files kept before the languages
 * hold English sentences: shown as they are.
 */
export type StoredAcceptanceFigure = Omit<AcceptanceFigure, 'name'> & { name: StoredText };
export type StoredAcceptanceFinding = Omit<
  AcceptanceFinding,
  'title' | 'figures' | 'finding' | 'action'
> & {
  title: StoredText;
  figures: StoredAcceptanceFigure[];
  finding: StoredText;
  /** The empty string when nothing is to be done. */
  action: StoredText;
};
export type StoredAcceptanceResult = Omit<AcceptanceResult, 'findings'> & {
  findings: StoredAcceptanceFinding[];
};
export type StoredAcceptanceRecheck = Omit<AcceptanceRecheck, 'result'> & {
  result: StoredAcceptanceResult | null;
};

export function recheckInWords(
  recheck: StoredAcceptanceRecheck,
  wording: Wording,
): AcceptanceRecheck {
  const words = (text: StoredText) => wordsOf(text, wording);
  return {
    ...recheck,
    result: recheck.result && {
      ...recheck.result,
      findings: recheck.result.findings.map((finding) => ({
        ...finding,
        title: words(finding.title),
        figures: finding.figures.map((figure) => ({ ...figure, name: words(figure.name) })),
        finding: words(finding.finding),
        action: words(finding.action),
      })),
    },
  };
}
