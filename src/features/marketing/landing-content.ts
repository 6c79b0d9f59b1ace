/** The words of the landing page (docs/product.md, Public pages). */

export interface FeatureItem {
  title: string;
  text: string;
}

export const audiences = ['Freelancers', 'Students', 'Professionals', 'Teams'] as const;

export const features: FeatureItem[] = [
  {
    title: 'Links in colour-themed directories',
    text: 'Save bookmarks into directories with their own colour. Keep a directory private, make it public, protect it with a password, or share it with invited members.',
  },
  {
    title: 'A calendar for events and tasks',
    text: 'Plan events and tasks on one calendar, tick tasks off as you go and see at a glance what is coming up next.',
  },
  {
    title: 'Polls that settle decisions',
    text: 'Put options to a vote and let everyone have their say. Teams can run polls inside a shared directory.',
  },
  {
    title: 'Your own public profile',
    text: 'Publish a public profile page that shows the collections you choose to make public.',
  },
  {
    title: 'Works offline, installs as an app',
    text: 'Your workspace is kept on your device, so Linkboard opens and works without a connection and syncs when you are back online. Install it on your phone or computer like any other app.',
  },
];

export interface Testimonial {
  quote: string;
  author: string;
}

export const testimonials: Testimonial[] = [
  {
    quote:
      'Every client gets their own coloured directory with the briefs, links and deadlines in one place. Switching between projects takes seconds now.',
    author: 'Freelance web designer',
  },
  {
    quote:
      'My reading lists and exam dates finally live together, and it still works on the train when I have no signal.',
    author: 'University student',
  },
  {
    quote:
      'We stopped going round in circles in chat threads. A quick poll in our shared directory and the decision is made by lunch.',
    author: 'Team lead, product team',
  },
];
