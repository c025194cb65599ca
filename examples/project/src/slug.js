/**
 * Turn a post title into a URL slug: lower case, ASCII letters and digits, words joined by
 * single dashes. Used for post URLs, so the same title must always give the same slug.
 *
 * @param {string} title
 * @returns {string}
 */
export function slugify(title) {
  return title.toLowerCase().replace(/[^a-z0-9]/g, '-');
}
