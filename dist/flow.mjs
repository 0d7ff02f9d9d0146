import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{d as a,e as b,f as c,g as d}from"./chunks/chunk-WGJGKQNV.mjs";import"./chunks/chunk-J47OC7GM.mjs";import"./chunks/chunk-65JF52HA.mjs";import"./chunks/chunk-ZC56W3P3.mjs";export{d as bestEffortWithin,a as execute,b as fail,c as writeReports};
