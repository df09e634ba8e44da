// What a program needs to create tool projects the way `pipeline-tool init` does.
export {
  ANSWER_FIELDS,
  DEFAULT_FOLDER,
  DEFAULT_TYPE,
  DEFAULT_VERSION,
  TOOL_TYPES,
  checkAnswers,
  completeAnswers,
  defaultAnswer,
  describeAnswerProblem,
  nameFromFolder,
  normaliseAnswers,
  shortNameFrom,
  type AnswerField,
  type AnswerProblem,
  type AnswerProblemCode,
  type InitAnswers,
  type ToolType,
} from './answers.js';
export { readBridgeTypes, readTemplate } from './assets.js';
export {
  InitAnswersError,
  assertTargetUsable,
  initProject,
  inspectTarget,
  type InitOptions,
  type InitResult,
  type TargetState,
} from './init-project.js';
export { PUBLISHED_MARK, VENDOR_FOLDER, runningToolkitSource, toolkitSourceFrom, type ToolkitSource, type VendoredToolkit } from './toolkit-source.js';
export { DEFAULT_TEMPLATE, TEMPLATE_NAMES, TEMPLATE_SUMMARIES, TOOL_FOLDER, packageNameFor, planProject, type PlanInput, type PlannedFile, type TemplateFile, type TemplateName } from './plan.js';
