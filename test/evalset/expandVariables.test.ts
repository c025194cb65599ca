import { describe, expect, it } from 'vitest';
import { CASE_VARIABLES, expandVariables, findUnknownVariables } from '../../src/evalset/index.js';

const vars = { SANDBOX_DIR: '/runs/r1/sandbox', RUN_DIR: '/runs/r1', CASE_DIR: '/bank/demo' };

describe('expandVariables', () => {
  it('replaces every occurrence of the three case variables', () => {
    expect(expandVariables('cd "${SANDBOX_DIR}" && cp "${CASE_DIR}/x" "${RUN_DIR}/x" "${SANDBOX_DIR}/y"', vars)).toBe(
      'cd "/runs/r1/sandbox" && cp "/bank/demo/x" "/runs/r1/x" "/runs/r1/sandbox/y"',
    );
  });

  it('leaves plain $VAR and unknown ${NAME} untouched', () => {
    expect(expandVariables('echo $SANDBOX_DIR ${HOME} ${RUN_DIR:-x}', vars)).toBe('echo $SANDBOX_DIR ${HOME} ${RUN_DIR:-x}');
  });

  it('inserts values literally, even ones that look like patterns', () => {
    expect(expandVariables('${RUN_DIR}', { ...vars, RUN_DIR: '/a/$&/${CASE_DIR}' })).toBe('/a/$&/${CASE_DIR}');
  });
});

describe('findUnknownVariables', () => {
  it('lists braced names other than the case variables, as written', () => {
    expect(findUnknownVariables('${SANDBOX_DIR} ${HOME} $PATH ${X:-y} ${}')).toEqual(['${HOME}', '${X:-y}', '${}']);
  });

  it('finds nothing in text that only uses the case variables', () => {
    expect(findUnknownVariables(CASE_VARIABLES.map((name) => `\${${name}}`).join(' '))).toEqual([]);
  });
});
