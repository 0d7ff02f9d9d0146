import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b,c,d,e,f,g}from"./chunk-XNWKVOXH.mjs";import"./chunk-CDPJRMCM.mjs";import"./chunk-OB3CCO7M.mjs";import"./chunk-IRM5VVDU.mjs";import"./chunk-ZC56W3P3.mjs";export{a as UNSKIPPABLE_INPUTS,f as findLiveRevision,b as isInProgress,e as skipDecision,d as skipImpossible,g as skippedMessage,c as workflowCommit};
