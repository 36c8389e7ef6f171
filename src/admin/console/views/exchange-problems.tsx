/** What an exchange with 1C waits on a person for, on its page and on /attention: 1C's settings sharing no version, messages for other codes. */
import type { ExchangeProblems, StrayMessageItem, VersionProblem } from '../data/exchange-problems.js';
import type { Translate } from '../i18n.js';
import { Time } from './parts.js';

export function ExchangeProblemList(props: { t: Translate; problems: ExchangeProblems }) {
  const { t, problems } = props;
  return (
    <div class="exchange-problems">
      {problems.versionProblem ? <NoCommonVersion t={t} problem={problems.versionProblem} /> : null}
      {problems.strayMessages.length > 0 ? (
        <div class="stray-messages">
          <p class="hint">{t('exchange.strayIntro')}</p>
          <ul>
            {problems.strayMessages.map((stray) => (
              <li data-file={stray.name}>
                <span class="warn">{strayWords(t, stray)}</span> <Time at={stray.seenAt} />
                <br />
                <span class="hint">{t(`exchange.strayFix.${stray.kind}`, strayParams(stray))}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

function NoCommonVersion(props: { t: Translate; problem: VersionProblem }) {
  const { t, problem } = props;
  return (
    <div class="version-problem">
      <p class="warn">
        <strong>{t('exchange.noVersionTitle')}</strong> {t('exchange.noVersion', { theirs: problem.theirs.join(', ') || '—', ours: problem.ours.join(', ') })}
      </p>
      <p class="hint">
        {problem.readable.length > 0
          ? t('exchange.noVersionFixDeclare', { readable: problem.readable.join(', ') })
          : t('exchange.noVersionFixUpdate', { first: problem.first, last: problem.last })}
      </p>
    </div>
  );
}

const strayParams = (stray: StrayMessageItem) => ({
  name: stray.name,
  from: stray.from,
  to: stray.to,
  prefix: stray.prefix,
  node: stray.node,
  peer: stray.peer,
  reply: stray.reply,
});

/** What the file's name tells; 1C writing as its UUID names its prefix too. */
function strayWords(t: Translate, stray: StrayMessageItem): string {
  if (stray.kind === 'peer' && stray.prefix !== null) return t('exchange.stray.peerUuid', strayParams(stray));
  return t(`exchange.stray.${stray.kind}`, strayParams(stray));
}
