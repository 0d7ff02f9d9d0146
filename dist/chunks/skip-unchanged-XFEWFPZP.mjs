import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b,c,d,e,f,g}from"./chunk-NO75UQKZ.mjs";import"./chunk-IDHC5VFB.mjs";import"./chunk-IRM5VVDU.mjs";import"./chunk-ZC56W3P3.mjs";export{a as UNSKIPPABLE_INPUTS,f as findLiveRevision,b as isInProgress,e as skipDecision,d as skipImpossible,g as skippedMessage,c as workflowCommit};
