import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{f as a,g as b,h as c,i as d}from"./chunks/chunk-UVBT7752.mjs";import"./chunks/chunk-B53WUCTO.mjs";import"./chunks/chunk-WOISCHGY.mjs";import"./chunks/chunk-ZC56W3P3.mjs";export{d as bestEffortWithin,a as execute,b as fail,c as writeReports};
