import { describe, expect, it } from 'vitest';
import {
  atLeast,
  CONFIDENCES,
  classicResolution,
  compoundEvidence,
  staticConfidence,
  weakest,
} from './confidence.js';
import { parseSelector } from './parser.js';

const subject = (source: string) => parseSelector(source).alternatives[0]!.steps[0]!.subject;

describe('target confidence', () => {
  it('orders stable id > role + name > text > spatial > ocr', () => {
    expect(CONFIDENCES).toEqual(['STABLE_ID', 'ROLE_NAME', 'TEXT', 'SPATIAL', 'OCR']);
    expect(weakest('SPATIAL', 'OCR')).toBe('OCR');
    expect(staticConfidence(parseSelector('role=button name=Submit ?? ocr:"Submit"'))).toBe('OCR');
    expect(compoundEvidence(subject('ocr~=sub'))).toEqual({ strategy: 'OCR', confidence: 'OCR' });
    expect(weakest('STABLE_ID', 'TEXT')).toBe('TEXT');
    expect(weakest('SPATIAL', 'ROLE_NAME')).toBe('SPATIAL');
    expect(atLeast('ROLE_NAME', 'TEXT')).toBe(true);
    expect(atLeast('TEXT', 'TEXT')).toBe(true);
    expect(atLeast('SPATIAL', 'TEXT')).toBe(false);
  });

  it('reads a compound by its strongest predicate', () => {
    expect(compoundEvidence(subject('role=button testId=save'))).toEqual({
      strategy: 'TEST_ID',
      confidence: 'STABLE_ID',
    });
    expect(compoundEvidence(subject('atspiPath=/a/1'))).toEqual({
      strategy: 'ATSPI_PATH',
      confidence: 'STABLE_ID',
    });
    expect(compoundEvidence(subject('role=button name=Save'))).toEqual({
      strategy: 'ROLE_NAME',
      confidence: 'ROLE_NAME',
    });
    expect(compoundEvidence(subject('role=button name~=sav'))).toEqual({
      strategy: 'TEXT',
      confidence: 'TEXT',
    });
    expect(compoundEvidence(subject('role=button enabled=true'))).toEqual({
      strategy: 'ROLE',
      confidence: 'TEXT',
    });
  });

  it('scores a selector before evaluation by its weakest alternative and step', () => {
    expect(staticConfidence(parseSelector('testId=a'))).toBe('STABLE_ID');
    expect(staticConfidence(parseSelector('testId=a >> name=b'))).toBe('ROLE_NAME');
    expect(staticConfidence(parseSelector('testId=a ?? name~=b'))).toBe('TEXT');
    expect(staticConfidence(parseSelector('testId=a right-of name=b'))).toBe('SPATIAL');
  });

  it('scores the classic ways by their kind, an nth as a position', () => {
    expect(classicResolution({ ref: 'e1' })).toEqual({ strategy: 'REF', confidence: 'STABLE_ID' });
    expect(classicResolution({ testId: 'x' })).toEqual({ strategy: 'TEST_ID', confidence: 'STABLE_ID' });
    expect(classicResolution({ role: 'button', name: 'Save' }).confidence).toBe('ROLE_NAME');
    expect(classicResolution({ role: 'button', name: 'Sa', exact: false }).confidence).toBe('TEXT');
    expect(classicResolution({ role: 'button' })).toEqual({ strategy: 'ROLE', confidence: 'TEXT' });
    expect(classicResolution({ selector: '#x' })).toEqual({ strategy: 'CSS', confidence: 'TEXT' });
    expect(classicResolution({ text: 'Save' })).toEqual({ strategy: 'TEXT', confidence: 'TEXT' });
    expect(classicResolution({ testId: 'x', nth: 1 })).toEqual({ strategy: 'NTH', confidence: 'SPATIAL' });
  });
});
