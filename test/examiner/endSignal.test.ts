import { describe, expect, it } from 'vitest';
import { END_SIGNAL, readExaminerReply } from '../../src/examiner/index.js';

describe('readExaminerReply', () => {
  it('passes an ordinary message through, trimmed', () => {
    expect(readExaminerReply('  Can you also run the tests?\n')).toEqual({ message: 'Can you also run the tests?', ended: false });
  });

  it.each([
    ['bare', END_SIGNAL],
    ['with whitespace', '  \n<<END>>\n '],
    ['in double quotes', '"<<END>>"'],
    ['in single quotes', "'<<END>>'"],
    ['in backticks', '`<<END>>`'],
    ['in a code fence', '```\n<<END>>\n```'],
    ['in curly quotes', '“<<END>>”'],
    ['lower case', '<<end>>'],
    ['with inner spaces', '<< END >>'],
  ])('ends on the token %s, with nothing to send', (_name, reply) => {
    expect(readExaminerReply(reply)).toEqual({ message: '', ended: true });
  });

  it('ends on a closing remark followed by the token, keeping the remark for the record', () => {
    expect(readExaminerReply('Great, that works for me. Thanks!\n\n<<END>>')).toEqual({ message: 'Great, that works for me. Thanks!', ended: true });
  });

  it('ends on the token before a remark too', () => {
    expect(readExaminerReply('<<END>> (satisfied)')).toEqual({ message: '(satisfied)', ended: true });
  });

  it('does not end on a near miss', () => {
    expect(readExaminerReply('<END> is not the token, and neither is END')).toEqual({
      message: '<END> is not the token, and neither is END',
      ended: false,
    });
  });
});
