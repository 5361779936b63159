// Jest loads no stylesheets: CSS imports resolve to this empty module.
export default {};
