import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{e as i,f as s,g as m,h as a,i as c,j as u,k as l,l as p}from"./chunk-WIL2FYIT.mjs";import"./chunk-HEDYUAHL.mjs";import{a as o}from"./chunk-WOISCHGY.mjs";import"./chunk-ZC56W3P3.mjs";import{appendFile as d}from"node:fs/promises";import{EOL as f}from"node:os";var g=6e4;function y(t){let r=m(t),n=a(t),e=u(t);return l(`### ${i(t)}`,s(t),r?`#### Status timeline

${r}`:"",p(t),n?`#### Error

${n}`:"",c(t,g),e?`#### Warnings

${e}`:"")}async function M(t,r=process.env,n){let e=r.GITHUB_STEP_SUMMARY;if(!e){n?.debug("GITHUB_STEP_SUMMARY is not set: no step summary written.");return}try{await d(e,o(y(t))+f,"utf8")}catch(S){n?.warning(`Could not write the step summary to ${e}: ${S.message}. The deploy result is unchanged.`,{title:"Step summary not written"})}}export{y as renderSummary,M as writeSummary};
