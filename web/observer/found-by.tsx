import './found-by.css';
/** How a page element target was found: GraphQL's TargetConfidence, strongest first. */
export type TargetConfidence = 'STABLE_ID' | 'ROLE_NAME' | 'TEXT' | 'SPATIAL' | 'OCR';

const FOUND_BY: Record<TargetConfidence, string> = {
  STABLE_ID: 'by a stable id',
  ROLE_NAME: 'by role and name',
  TEXT: 'by text',
  SPATIAL: 'by position',
  OCR: 'read by OCR from the screen',
};

/**
 * How the target was found, in words; a target read by OCR is marked, since nothing in a tree says what
 * those words belong to and the policy weighs it one tier higher.
 */
export function FoundBy(props: { confidence: TargetConfidence }) {
  const { confidence } = props;
  return <span class={`found-by found-${confidence.toLowerCase()}`}>{FOUND_BY[confidence]}</span>;
}
