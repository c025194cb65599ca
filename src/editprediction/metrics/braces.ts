/**
 * Bracket imbalance of a text: |#{ − #}| + |#( − #)| + |#[ − #]|. The metric is the imbalance a
 * prediction adds: max(0, d(actual) − d(original)).
 */
export function bracesDisbalance(text: string): number {
  const count = (char: string) => text.split(char).length - 1;
  return Math.abs(count('{') - count('}')) + Math.abs(count('(') - count(')')) + Math.abs(count('[') - count(']'));
}
