/**
 * Count the words of a post body. A word is a run of characters other than whitespace.
 *
 * @param {string} text
 * @returns {number}
 */
export function wordCount(text) {
  const words = text.trim().split(/\s+/);
  return words[0] === '' ? 0 : words.length;
}
