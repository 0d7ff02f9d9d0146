import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{e as s,f as m,g as a,h as c,i as l,j as u,k as p,l as g}from"./chunk-RBBYSO33.mjs";import"./chunk-HEDYUAHL.mjs";import{a as i}from"./chunk-KYNHCJGC.mjs";import"./chunk-ZC56W3P3.mjs";import{appendFile as f}from"node:fs/promises";import{EOL as d}from"node:os";var y=6e4;function S(t){let n=a(t),r=c(t),e=p(t),o=u(t);return g(`### ${s(t)}`,m(t),n?`#### Status timeline

${n}`:"",r?`#### Error

${r}`:"",o?`#### Pre-flight errors

${o}`:"",l(t,y),e?`#### Warnings

${e}`:"")}async function _(t,n=process.env,r){let e=n.GITHUB_STEP_SUMMARY;if(!e){r?.debug("GITHUB_STEP_SUMMARY is not set: no step summary written.");return}try{await f(e,i(S(t))+d,"utf8")}catch(o){r?.warning(`Could not write the step summary to ${e}: ${o.message}. The deploy result is unchanged.`,{title:"Step summary not written"})}}export{S as renderSummary,_ as writeSummary};
