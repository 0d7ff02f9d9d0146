import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{d as a,e as b,f as c,g as d}from"./chunks/chunk-P4IJVY2W.mjs";import"./chunks/chunk-KNXIY5M6.mjs";import"./chunks/chunk-65JF52HA.mjs";import"./chunks/chunk-ZC56W3P3.mjs";export{d as bestEffortWithin,a as execute,b as fail,c as writeReports};
