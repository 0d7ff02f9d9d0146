import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a as s,b as m,c as a,d as c,e as l,f as u,g as p,h as f,i as g,j as S}from"./chunk-SJ5SJANW.mjs";import"./chunk-IDHC5VFB.mjs";import"./chunk-6D5YY6WD.mjs";import"./chunk-QPBA2KJ2.mjs";import{a as i}from"./chunk-IRM5VVDU.mjs";import"./chunk-ZC56W3P3.mjs";import{appendFile as d}from"node:fs/promises";import{EOL as y}from"node:os";var R=6e4;function h(t){let r=a(t),n=l(t),e=f(t),o=p(t);return g(`### ${s(t)}`,m(t),r?`#### Status timeline

${r}`:"",c(t),S(t),n?`#### Error

${n}`:"",o?`#### Pre-flight errors

${o}`:"",u(t,R),e?`#### Warnings

${e}`:"")}async function L(t,r=process.env,n){let e=r.GITHUB_STEP_SUMMARY;if(!e){n?.debug("GITHUB_STEP_SUMMARY is not set: no step summary written.");return}try{await d(e,i(h(t))+y,"utf8")}catch(o){n?.warning(`Could not write the step summary to ${e}: ${o.message}. The deploy result is unchanged.`,{title:"Step summary not written"})}}export{h as renderSummary,L as writeSummary};
