import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b,c,d,e,f,g,h}from"./chunk-CDPJRMCM.mjs";import"./chunk-ZC56W3P3.mjs";export{a as RECORD_NAME,b as canonicalJson,c as canonicalSettings,h as compareSettings,d as recordKey,e as recordValue,g as sentSettings,f as withRecord};
