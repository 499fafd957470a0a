export { TrapDeclarationError, type DownstreamTask, type TrapGroup, type TrapOptions } from './group.js';
export { falsePremiseTrap, type FalsePremiseOptions } from './false-premise.js';
export {
  missingInformationTrap,
  MISSING_INFORMATION_NO_NEGATIVE,
  type MissingInformationOptions,
} from './missing-information.js';
export { impossibleConstraintTrap, type ImpossibleConstraintOptions } from './impossible-constraint.js';
export { repeatedNudgeTrap, type RepeatedNudgeOptions } from './repeated-nudge.js';
export { dialectDistortionTrap, type DialectDistortionOptions } from './dialect-distortion.js';
export { forbiddenMethodTrap, type ForbiddenMethodOptions } from './forbidden-method.js';
export { unsupportedClaimTrap, type UnsupportedClaimOptions } from './unsupported-claim.js';
export { distort, recoverability, type DistortionOptions } from './distortion.js';
export { latinSquare } from './order.js';
export { trapChain, type TrapChainOptions } from './chain.js';
