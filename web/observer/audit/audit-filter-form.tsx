import { useState } from 'preact/hooks';
import type { AuditFilter, AuditOutcome, PolicyDecision } from './audit-trail.js';

const OUTCOMES: readonly AuditOutcome[] = ['OK', 'DENIED', 'FAILED', 'TIMED_OUT'];
const DECISIONS: readonly PolicyDecision[] = ['ALLOW', 'ASK', 'DENY'];

/** The AuditFilter fields an observer narrows by: session, client, operations, outcomes, decisions, time. */
export function AuditFilterForm(props: { onApply(filter: AuditFilter): void }) {
  const [sessionId, setSessionId] = useState('');
  const [clientId, setClientId] = useState('');
  const [operations, setOperations] = useState('');
  const [outcomes, setOutcomes] = useState<AuditOutcome[]>([]);
  const [decisions, setDecisions] = useState<PolicyDecision[]>([]);
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');

  const apply = () => {
    const names = operations.split(/[\s,]+/).filter(Boolean);
    props.onApply({
      ...(sessionId.trim() ? { sessionId: sessionId.trim() } : {}),
      ...(clientId.trim() ? { clientId: clientId.trim() } : {}),
      ...(names.length ? { operations: names } : {}),
      ...(outcomes.length ? { outcomes } : {}),
      ...(decisions.length ? { decisions } : {}),
      ...(since ? { since: new Date(since).toISOString() } : {}),
      // The input has whole minutes: "until 10:05" includes everything sealed during 10:05.
      ...(until ? { until: new Date(Date.parse(until) + 59_999).toISOString() } : {}),
    });
  };

  return (
    <form
      class="audit-filter"
      aria-label="Filter audit records"
      onSubmit={(event) => {
        event.preventDefault();
        apply();
      }}
    >
      <div class="audit-filter-fields">
        <Field name="session" label="Session" placeholder="s1" value={sessionId} onChange={setSessionId} />
        <Field
          name="client"
          label="Client"
          placeholder="agent-1a2b3c4d"
          value={clientId}
          onChange={setClientId}
        />
        <Field
          name="operations"
          label="Operations (comma-separated)"
          placeholder="click, fill"
          value={operations}
          onChange={setOperations}
        />
        <Field name="since" label="Since" time value={since} onChange={setSince} />
        <Field name="until" label="Until" time value={until} onChange={setUntil} />
      </div>
      <Choices legend="Outcome" name="outcome" options={OUTCOMES} chosen={outcomes} onChange={setOutcomes} />
      <Choices
        legend="Decision"
        name="decision"
        options={DECISIONS}
        chosen={decisions}
        onChange={setDecisions}
      />
      <div class="audit-filter-actions">
        <button type="submit">Apply filter</button>
        <button
          type="button"
          onClick={() => {
            setSessionId('');
            setClientId('');
            setOperations('');
            setOutcomes([]);
            setDecisions([]);
            setSince('');
            setUntil('');
            props.onApply({});
          }}
        >
          Clear filter
        </button>
      </div>
    </form>
  );
}

/** One labelled input of the filter: text, or a local date and time (`time`). */
function Field(props: {
  name: string;
  label: string;
  time?: boolean;
  placeholder?: string;
  value: string;
  onChange(value: string): void;
}) {
  const id = `audit-filter-${props.name}`;
  const input = {
    id,
    value: props.value,
    onInput: (event: { currentTarget: HTMLInputElement }) => props.onChange(event.currentTarget.value),
  };
  return (
    <>
      <label for={id}>{props.label}</label>
      {props.time ? (
        <input type="datetime-local" {...input} />
      ) : (
        <input type="text" placeholder={props.placeholder} {...input} />
      )}
    </>
  );
}

function Choices<T extends string>(props: {
  legend: string;
  name: string;
  options: readonly T[];
  chosen: T[];
  onChange(chosen: T[]): void;
}) {
  return (
    <fieldset class="audit-filter-choices">
      <legend>{props.legend}</legend>
      {props.options.map((option) => {
        const id = `audit-filter-${props.name}-${option}`;
        return (
          <span key={option} class="choice">
            <input
              id={id}
              type="checkbox"
              checked={props.chosen.includes(option)}
              onChange={(event) =>
                props.onChange(
                  event.currentTarget.checked
                    ? [...props.chosen, option]
                    : props.chosen.filter((value) => value !== option),
                )
              }
            />
            <label for={id}>{option.replace('_', ' ').toLowerCase()}</label>
          </span>
        );
      })}
    </fieldset>
  );
}
