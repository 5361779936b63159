import { fireEvent, screen } from '@testing-library/react';
import { renderScreen } from '../test-utils';
import {
  DEFAULT_TRAINING_CAPTIONS,
  DEFAULT_TRAINING_VIDEO,
  TrainingVideo,
  trainingVideoSource,
} from './TrainingVideo';

const video = () => screen.getByLabelText(/^Training video:/) as HTMLVideoElement;

afterEach(() => {
  document.head.querySelector('meta[name="ratesmith-training-video"]')?.remove();
});

function configure(url: string) {
  const meta = document.createElement('meta');
  meta.name = 'ratesmith-training-video';
  meta.content = url;
  document.head.append(meta);
}

describe('the training video', () => {
  it('plays the recorded walkthrough with its English captions by default', () => {
    renderScreen(<TrainingVideo />);
    const player = video();
    expect(player.tagName).toBe('VIDEO');
    expect(player.getAttribute('src')).toBe(DEFAULT_TRAINING_VIDEO);
    expect(player.controls).toBe(true);
    expect(player.getAttribute('preload')).toBe('metadata');
    const track = player.querySelector('track')!;
    expect({
      kind: track.kind,
      src: track.getAttribute('src'),
      srclang: track.srclang,
      label: track.label,
    }).toEqual({
      kind: 'captions',
      src: DEFAULT_TRAINING_CAPTIONS,
      srclang: 'en',
      label: 'English',
    });
  });

  it('shows a still frame until the video is known, then only the player', () => {
    renderScreen(<TrainingVideo />);
    expect(screen.getByText('How to set up your first ruleset, step by step.')).toBeTruthy();
    fireEvent(video(), new Event('loadedmetadata'));
    expect(screen.queryByText('How to set up your first ruleset, step by step.')).toBeNull();
    expect(video()).toBeTruthy();
  });

  it('says the video could not be loaded instead of showing a broken player', () => {
    renderScreen(<TrainingVideo />);
    fireEvent.error(video());
    expect(screen.queryByLabelText(/^Training video:/)).toBeNull();
    expect(screen.getByText('The training video could not be loaded')).toBeTruthy();
  });

  it("plays the gateway's TRAINING_VIDEO_URL instead, without the walkthrough's captions", () => {
    configure('https://videos.example.com/training.mp4');
    expect(trainingVideoSource()).toEqual({ video: 'https://videos.example.com/training.mp4' });
    renderScreen(<TrainingVideo />);
    expect(video().getAttribute('src')).toBe('https://videos.example.com/training.mp4');
    expect(video().querySelector('track')).toBeNull();
  });

  it('ignores an empty meta tag', () => {
    configure(' ');
    expect(trainingVideoSource()).toEqual({
      video: DEFAULT_TRAINING_VIDEO,
      captions: DEFAULT_TRAINING_CAPTIONS,
    });
  });
});
