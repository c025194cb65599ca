export { END_SIGNAL, examinerEventContent, readExaminerEvent, readExaminerReply, type ExaminerReplyText } from './endSignal.js';
export {
  buildExaminerMessages,
  EMPTY_REPLY,
  type DialogueMessage,
  type ExaminerPromptInput,
  type ExaminerTask,
} from './examinerPrompt.js';
export { firstMessage } from './firstMessage.js';
export { nextMessage, type ExaminerReply } from './nextMessage.js';
