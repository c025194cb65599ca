/** What the examiner replies, alone, to end the dialogue. */
export const END_SIGNAL = '<<END>>';

/** The token, tolerant of case and inner spaces (`<< END >>`, `<<end>>`). */
const END_TOKEN = /<<\s*END\s*>>/i;
const END_TOKENS = new RegExp(END_TOKEN.source, 'gi');
const WRAPPING = /^[\s"'`“”‘’]+|[\s"'`“”‘’]+$/g;

export interface ExaminerReplyText {
  /** The text to send to the candidate; when `ended`, the text that came with the token, recorded but not sent. */
  message: string;
  ended: boolean;
}

/**
 * Read the examiner model's reply. The token is reserved for ending, so any occurrence ends
 * the dialogue: bare (`<<END>>`), wrapped in quotes, backticks or whitespace, or after (or
 * before) a closing remark such as `Thanks, that works. <<END>>`. Such a remark is kept in
 * `message` for the transcript but is not sent: the examiner has decided to stop, and one more
 * candidate turn would cost time and could change the sandbox after the user left.
 */
export function readExaminerReply(text: string): ExaminerReplyText {
  const trimmed = text.trim();
  if (!END_TOKEN.test(trimmed)) return { message: trimmed, ended: false };
  const remark = trimmed.replace(END_TOKENS, ' ').replace(WRAPPING, '');
  return { message: remark, ended: true };
}

/**
 * How an examiner turn is kept in the transcript: its message, or, when it ended the
 * dialogue, `<<END>>` on the first line followed by the remark that came with it.
 */
export function examinerEventContent(reply: ExaminerReplyText): string {
  return reply.ended ? `${END_SIGNAL}${reply.message ? `\n${reply.message}` : ''}` : reply.message;
}

/** The examiner turn back from its transcript content (the inverse of `examinerEventContent`). */
export function readExaminerEvent(content: string): ExaminerReplyText {
  if (content.startsWith(END_SIGNAL)) return { message: content.slice(END_SIGNAL.length).trim(), ended: true };
  return { message: content, ended: false };
}
